import { readFileSync } from 'node:fs';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IncidentServiceStack } from './incident-service-stack.ts';
import { readSettings, type ServiceSettings } from './settings.ts';

export interface ServiceAppOptions {
  /** Context on top of cdk.json's, as `-c key=value` gives it to `cdk synth`. */
  context?: Record<string, unknown>;
  /**
   * Checks at synth, default on: cdk-nag's AwsSolutions pack and CloudFormation's template rules
   * (dependency cycles and the like), which cdk.json turns into errors. Off they save ~5 s, for
   * tests that only read the template.
   */
  checks?: boolean;
}

export interface ServiceApp {
  app: App;
  stack: IncidentServiceStack;
  settings: ServiceSettings;
}

/**
 * cdk.json's context (feature flags included) applied in-process too, so tests and the local runner
 * build the very stack `cdk synth` builds. Under the CLI the same values arrive again and win.
 */
const cdkJsonContext = (): Record<string, unknown> => {
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
};

/** The CDK app: one stack per stage, environment-agnostic, so synth needs no account or lookups. */
export const createServiceApp = ({ context = {}, checks = true }: ServiceAppOptions = {}): ServiceApp => {
  const app = new App({ context: { ...cdkJsonContext(), ...context }, builtinCloudFormationValidation: checks });
  const settings = readSettings((key) => app.node.tryGetContext(key));
  const stack = new IncidentServiceStack(app, `IncidentService-${settings.stage}`, {
    settings,
    description: `Incident management service (${settings.stage})`,
  });
  Tags.of(app).add('service', 'incident-service');
  Tags.of(app).add('stage', settings.stage);
  if (checks) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, settings };
};
