import { afterEach, describe, expect, it, vi } from 'vitest';
import { Validations, type Acknowledgment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from './template.ts';

describe('cdk-nag AwsSolutions', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('finds nothing unacknowledged: the app synthesizes with the checks on', () => {
    const { app } = buildApp({}, true);
    expect(() => app.synth()).not.toThrow();
  });

  it('finds nothing unacknowledged in a production deploy with every setting given', () => {
    const { app } = buildApp(
      {
        stage: 'prod',
        mailFrom: 'ops@acme.test',
        mailIdentity: 'acme.test',
        alarmEmail: 'ops@acme.test',
        allowedOrigins: 'https://app.acme.test',
        appUrl: 'https://app.acme.test',
        apiLogging: 'createRole',
      },
      true,
    );
    expect(() => app.synth()).not.toThrow();
  });

  it('acknowledges only findings that exist, each with a reason', () => {
    const acknowledged: Acknowledgment[] = [];
    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation((...rules) => {
      acknowledged.push(...rules);
    });
    const { app } = buildApp();
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = new Set(report.violations.map((violation) => violation.ruleName));

    for (const { id, reason } of acknowledged) {
      expect(findings, `stale acknowledgement ${id}`).toContain(id);
      expect(reason.length, id).toBeGreaterThan(40);
    }
    const errors = report.violations.filter((violation) => violation.severity === 'error');
    expect(errors.map((error) => error.ruleName).filter((id) => !acknowledged.some((ack) => ack.id === id))).toEqual(
      [],
    );
  });
});
