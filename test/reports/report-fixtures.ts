import type { IncidentReport } from '#lib/reports/incident-report.ts';
import type { HistoryEvent } from '#lib/tickets/history.ts';

/** Reports as the incidents service gathers them: one with every part filled in, one of a new incident. */
export const event = (
  event: HistoryEvent['event'],
  timestamp: string,
  actor: string,
  extra: Partial<HistoryEvent> = {},
): HistoryEvent => ({
  id: `h-${timestamp}`,
  ticketId: 'INC-2024-0142',
  ticketType: 'INCIDENT',
  event,
  actor,
  timestamp,
  ...extra,
});

export const FULL: IncidentReport = {
  workspaceName: 'Acme Payments',
  generatedAt: '2024-05-02T09:30:00.000Z',
  timezone: 'Europe/Berlin',
  note: 'Prepared for the **weekly reliability review**. Figures are provisional until finance confirms the refunds.',
  incident: {
    id: 'INC-2024-0142',
    summary: 'Card payments failing for EU customers at checkout',
    priority: 'CRITICAL',
    status: 'RESOLVED',
    source: 'Datadog monitor: checkout-error-rate',
    serviceArea: 'Payments',
    environment: 'production',
    region: 'eu-west-1',
    assignedToEmail: 'dana.ops@acme.example',
    description:
      'Between 14:02 and 15:47 UTC some customers in Europe could not complete card payments. Orders were not charged twice; affected customers can retry now.',
    techDescription: [
      'The payment gateway client started receiving `503` responses from the acquirer after the **connection pool** was reduced in release `2024.05.01-3`.',
      '',
      '## What we saw',
      '- p99 latency on `POST /charges` rose from 350 ms to 9 s',
      '- error rate peaked at 38% in eu-west-1',
      '  - us-east-1 was unaffected',
      '- retries amplified load on the acquirer',
      '',
      '```',
      'maxConnections: 200 -> 20',
      'idleTimeout:    60s',
      '```',
      '',
      'See the [deployment dashboard](https://grafana.example/d/deploys) and ![graph](https://images.example/graph.png).',
    ].join('\n'),
    impactSummary: 'About 12,400 failed checkout attempts; an estimated €61k in delayed revenue.',
    blastRadius: 'EU storefronts (DE, FR, NL, ES); mobile and web. No impact on subscriptions or payouts.',
    createdAt: '2024-05-01T14:05:12.000Z',
    updatedAt: '2024-05-01T16:20:00.000Z',
    acknowledgedAt: '2024-05-01T14:09:40.000Z',
    resolvedAt: '2024-05-01T15:52:03.000Z',
    resolvedBy: 'dana.ops@acme.example',
    resolution: 'Rolled back release `2024.05.01-3` and restored **200 connections** per pool.',
    rootCause: 'A staging-only pool size was promoted to production with the release.',
  },
  comments: [
    {
      authorEmail: 'dana.ops@acme.example',
      createdAt: '2024-05-01T14:12:00.000Z',
      content: 'Rolling back **2024.05.01-3** now.\n\nWatching `checkout-error-rate`; will update in 10 minutes.',
    },
    {
      authorEmail: 'li.wei@acme.example',
      createdAt: '2024-05-01T14:31:00.000Z',
      content: [
        '### Findings so far',
        '1. Rollback finished at 14:28',
        '2. Error rate back under 2%',
        '3. Acquirer confirms no outage on their side',
        '',
        '> The pool change was meant for staging only.',
      ].join('\n'),
    },
    {
      authorEmail: 'sam.manager@acme.example',
      createdAt: '2024-05-01T15:50:00.000Z',
      content: 'Thanks all. Please draft the customer note — keep it short and mention the retry.',
    },
  ],
  messages: [
    {
      kind: 'SYSTEM',
      text: 'Incident opened from alert "checkout-error-rate above 5%"',
      actor: 'system',
      createdAt: '2024-05-01T14:05:12.000Z',
    },
    {
      kind: 'SYSTEM',
      text: 'Paged on-call: dana.ops@acme.example (escalation level 1)',
      actor: 'system',
      createdAt: '2024-05-01T14:05:30.000Z',
    },
    {
      kind: 'SYSTEM',
      text: 'Status page updated: **Investigating** card payment errors',
      actor: 'statuspage-bot',
      createdAt: '2024-05-01T14:15:00.000Z',
    },
    {
      kind: 'SYSTEM',
      text: 'Status page updated: Resolved',
      actor: 'statuspage-bot',
      createdAt: '2024-05-01T15:55:00.000Z',
    },
  ],
  history: [
    event('CREATED', '2024-05-01T14:05:12.000Z', 'system', { to: 'OPEN' }),
    event('SIGNAL_LINKED', '2024-05-01T14:05:13.000Z', 'system', { to: 'SIG-88412' }),
    event('ASSIGNED', '2024-05-01T14:09:30.000Z', 'dana.ops@acme.example', { from: null, to: 'dana.ops@acme.example' }),
    event('STATUS_CHANGE', '2024-05-01T14:09:40.000Z', 'dana.ops@acme.example', { from: 'OPEN', to: 'ACKNOWLEDGED' }),
    event('COMMENT_ADDED', '2024-05-01T14:12:00.000Z', 'dana.ops@acme.example', {
      message: 'Rolling back **2024.05.01-3** now.\n\nWatching ...',
    }),
    event('STATUS_CHANGE', '2024-05-01T14:13:00.000Z', 'dana.ops@acme.example', {
      from: 'ACKNOWLEDGED',
      to: 'INVESTIGATION',
    }),
    event('PRIORITY_CHANGE', '2024-05-01T14:20:00.000Z', 'api-key:pagerduty-sync', { from: 'HIGH', to: 'CRITICAL' }),
    event('COMMENT_ADDED', '2024-05-01T14:31:00.000Z', 'li.wei@acme.example', {
      message: '### Findings so far\n1. Rollback finished at 14:28',
    }),
    event('FIELD_CHANGE', '2024-05-01T14:40:00.000Z', 'li.wei@acme.example', {
      field: 'region',
      from: 'unknown',
      to: 'eu-west-1',
    }),
    event('STATUS_CHANGE', '2024-05-01T15:10:00.000Z', 'li.wei@acme.example', {
      from: 'INVESTIGATION',
      to: 'MITIGATED',
    }),
    event('COMMENT_ADDED', '2024-05-01T15:50:00.000Z', 'sam.manager@acme.example', {
      message: 'Thanks all. Please draft the customer note.',
    }),
    event('RESOLVED', '2024-05-01T15:52:03.000Z', 'dana.ops@acme.example', {
      from: 'MITIGATED',
      to: 'RESOLVED',
      message: 'Rollback verified for 60 minutes',
    }),
  ],
  signals: [
    {
      id: '01HXA0000000000000000000AA',
      name: 'CheckoutErrorRate',
      source: 'metrics-alerts',
      severity: 'HIGH',
      status: 'RESOLVED',
      triggeredAt: '2024-05-01T14:04:40.000Z',
      summary: 'checkout-error-rate above 5% in eu-west-1',
      labels: [
        ['alertname', 'CheckoutErrorRate'],
        ['region', 'eu-west-1'],
        ['severity', 'page'],
        ['team', 'payments'],
      ],
      runbookUrl: 'https://runbooks.acme.example/checkout-errors',
    },
  ],
  moreSignals: 0,
  playbookRuns: [
    {
      title: 'Payments degraded',
      version: 3,
      status: 'COMPLETED',
      startedBy: 'dana.ops@acme.example',
      startedAt: '2024-05-01T14:10:05.000Z',
      steps: [
        {
          title: 'Check the payments dashboards',
          optional: false,
          status: 'COMPLETED',
          note: 'Gateway errors at 38% in eu-west-1 only',
          reason: null,
          finishedAt: '2024-05-01T14:11:30.000Z',
          finishedBy: 'dana.ops@acme.example',
        },
        {
          title: 'Fail over to the secondary acquirer',
          optional: true,
          status: 'SKIPPED',
          note: null,
          reason: 'The acquirer is healthy',
          finishedAt: '2024-05-01T14:12:10.000Z',
          finishedBy: 'dana.ops@acme.example',
        },
        {
          title: 'Post an update for customer support',
          optional: false,
          status: 'COMPLETED',
          note: 'Support told: retry is safe, nobody charged twice',
          reason: null,
          finishedAt: '2024-05-01T14:16:00.000Z',
          finishedBy: 'li.wei@acme.example',
        },
      ],
      actions: [
        {
          description: 'Paged the acquirer account manager',
          recordedBy: 'li.wei@acme.example',
          recordedAt: '2024-05-01T14:14:00.000Z',
        },
      ],
    },
  ],
  notifications: [
    {
      event: 'OPENED',
      channel: 'email',
      recipient: 'oncall@acme.example',
      status: 'SENT',
      at: '2024-05-01T14:05:14.000Z',
    },
    {
      event: 'OPENED',
      channel: 'chat',
      recipient: '#payments-incidents',
      status: 'SENT',
      at: '2024-05-01T14:05:15.000Z',
    },
    {
      event: 'RESOLVED',
      channel: 'email',
      recipient: 'oncall@acme.example',
      status: 'SENT',
      at: '2024-05-01T15:52:05.000Z',
    },
  ],
  analysis: {
    hypothesis:
      'The connection pool reduction in release 2024.05.01-3 starved the payment gateway client under EU peak load.',
    rootCause: 'A staging-only configuration value (`maxConnections: 20`) was promoted to production with the release.',
    impactAssessment:
      'Checkout failures for EU card payments for 1 h 45 min; no duplicate charges; revenue delayed, not lost.',
    contributingFactors: [
      'Environment-specific values live in the same file as shared defaults',
      'The canary stage ran in us-east-1 only, where traffic was low',
      'Client retries without jitter multiplied load',
    ],
    remediationOptions: [
      'Validate pool sizes per environment in CI',
      'Add an EU canary stage before full rollout',
      'Retry with exponential backoff and jitter',
    ],
    confidence: 0.82,
    asOf: '2024-05-01T17:01:58.000Z',
    completedAt: '2024-05-01T17:02:00.000Z',
  },
};

export const MINIMAL: IncidentReport = {
  workspaceName: 'Acme',
  generatedAt: '2024-05-02T09:30:00.000Z',
  timezone: 'UTC',
  incident: {
    id: 'INC-7',
    summary: 'Search results slow',
    priority: 'MEDIUM',
    status: 'OPEN',
    createdAt: '2024-05-02T09:00:00.000Z',
    updatedAt: '2024-05-02T09:00:00.000Z',
  },
  comments: [],
  messages: [],
  history: [],
  signals: [],
  moreSignals: 0,
  playbookRuns: [],
  notifications: [],
};
