import type { Agenda } from './agenda.ts';
import { API, type DemoClient, type Headers } from './client.ts';
import { comment, move } from './incidents.ts';
import { analyse } from './insights.ts';
import type { Person } from './people.ts';

export const SHOWCASE_SUMMARY = 'Queue consumers stuck after deploy';

const MINUTE = 60_000;
/** When the showcase incident was declared: three days and eight hours before the demo's end. */
const DECLARED_BEFORE_END_MS = (3 * 24 + 8) * 60 * MINUTE;

export interface ShowcaseKeys {
  /** The key AWS's EventBridge API destination posts deployments with. */
  eventbridge: Headers;
  /** The team's own checks'. */
  checks: Headers;
}

/** CodeDeploy's state-change event as EventBridge delivers it (test/fixtures/ingestion/eventbridge/README.md). */
const codeDeploySucceeded = (at: Date) => ({
  version: '0',
  id: '5f3b8a52-3c1e-4f0e-9b43-7d0a2c6e91aa',
  'detail-type': 'CodeDeploy Deployment State-change Notification',
  source: 'aws.codedeploy',
  account: '123456789012',
  time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: 'eu-central-1',
  resources: [
    'arn:aws:codedeploy:eu-central-1:123456789012:application:payments-api',
    'arn:aws:codedeploy:eu-central-1:123456789012:deploymentgroup:payments-api/production',
  ],
  detail: {
    application: 'payments-api',
    deploymentId: 'd-7QX2K4M1B',
    deploymentGroup: 'production',
    state: 'SUCCESS',
    region: 'eu-central-1',
  },
});

const consumerCheck = (name: string, value: number, at: Date) => ({
  name,
  source: 'synthetic-checks',
  type: 'metric',
  severity: 'MEDIUM',
  serviceId: 'payments-api',
  value,
  metadata: { labels: { team: 'payments', environment: 'production', consumer: 'payment-confirmations' } },
  triggeredAt: at.toISOString(),
});

/**
 * The week's worst incident, as it happened: payments-api is deployed (CodeDeploy, through EventBridge,
 * placed at the deployment's own time); minutes later its confirmation consumers stop and its checks say
 * so; an engineer declares the incident, the responder asks for an analysis while working it through the
 * payments playbook (every step done or skipped, with notes), mitigates and resolves it within the hour.
 * The analysis has nothing to go on but this evidence: the deploy, the checks on payments-api and the
 * service map. Returns the incident's id once the agenda has created it.
 */
export const planShowcase = (
  agenda: Agenda,
  client: DemoClient,
  { reporter, responder }: { reporter: Person; responder: Person },
  keys: ShowcaseKeys,
  playbookId: string,
  end: Date,
): (() => string) => {
  const declared = end.getTime() - DECLARED_BEFORE_END_MS;
  const at = (minutes: number): Date => new Date(declared + minutes * MINUTE);
  const auth = responder.auth;
  let incidentId = '';
  let executionId = '';

  agenda.at(at(-18), () =>
    client.call('POST', `${API}/ingestion/eventbridge`, {
      body: codeDeploySucceeded(at(-18)),
      headers: keys.eventbridge,
      expect: 202,
    }),
  );
  for (const [minute, name, value] of [
    [-9, 'Payment confirmations not processed for 5 min', 0],
    [-5, 'Confirmation consumer lag above 10 min', 640],
  ] as const) {
    agenda.at(at(minute), () =>
      client.call('POST', `${API}/signals`, { body: consumerCheck(name, value, at(minute)), headers: keys.checks }),
    );
  }
  agenda.at(at(0), async () => {
    ({ id: incidentId } = await client.call<{ id: string }>('POST', `${API}/incident-ticket`, {
      body: {
        summary: SHOWCASE_SUMMARY,
        priority: 'CRITICAL',
        serviceArea: 'payments-api',
        environment: 'production',
        region: 'eu-central-1',
        source: 'manual',
        description: 'Payment confirmations stopped being processed minutes after the payments-api deploy.',
        assignedToEmail: responder.email,
      },
      headers: reporter.auth,
    }));
  });
  const steps: [minutes: number, act: () => Promise<unknown>][] = [
    [3, () => move(client, incidentId, 'ACKNOWLEDGED', auth)],
    [6, () => move(client, incidentId, 'INVESTIGATION', auth)],
    [7, () => comment(client, incidentId, 'Consumers hold a lock the new release never releases.', auth)],
    [8, () => analyse(client, auth, incidentId)],
    [
      10,
      async () => {
        ({ executionId } = await client.call<{ executionId: string }>(
          'POST',
          `${API}/playbooks/${playbookId}/execute`,
          {
            body: { incidentId, assignedToEmail: responder.email },
            headers: auth,
          },
        ));
      },
    ],
    [12, () => step(0, 'complete', { note: 'Confirmation consumers idle since the deploy, each waiting on one lock' })],
    [14, () => step(1, 'complete', { note: 'Provider all green: the fault is ours' })],
    [15, () => step(2, 'skip', { reason: 'Not a provider problem; failing over would not help' })],
    [24, () => move(client, incidentId, 'MITIGATED', auth)],
    [25, () => comment(client, incidentId, 'Restarted the consumers; backlog draining.', auth)],
    [31, () => step(3, 'complete', { note: 'Support told: confirmations delayed, nobody charged twice' })],
    [
      52,
      () =>
        client.call('POST', `${API}/incident-ticket/resolve/${incidentId}`, {
          body: {
            resolution: 'Rolled payments-api back to the previous release; the backlog drained in 20 minutes.',
            rootCause: 'The release took a lock per confirmation and never released it, so every consumer stopped.',
          },
          headers: auth,
        }),
    ],
    [55, () => comment(client, incidentId, 'Fixed in the next release: the lock now has a lease.', auth)],
  ];
  const step = (index: number, verb: 'complete' | 'skip', body: unknown) =>
    client.call('POST', `${API}/playbooks/executions/${executionId}/steps/${index}/${verb}`, { body, headers: auth });
  for (const [minutes, act] of steps) agenda.at(at(minutes), act);
  return () => incidentId;
};
