/**
 * Every partition a key can name, in one place: the word after `WS#<workspaceId>#` in a workspace key
 * (or after `ACCOUNT#` in an account key) and what lives there. `workspaceKey` and `accountKey` accept
 * only these, so a new entity registers its prefix here first; docs/data-model.md is checked against
 * this list by a test.
 */
export const WORKSPACE_PREFIXES = {
  ACKLINK: 'acknowledge links already used (each is single-use)',
  ANALYSIS: 'incident analyses and their reports',
  APIKEY: 'API keys of the workspace',
  BLAST: 'blast-radius reports',
  BLASTRISK: "each analysed service's running risk sums",
  CHANGE: 'change tickets',
  CHATACT: 'chat button presses acted on',
  CHATUSER: 'chat users linked to members',
  CORGROUP: 'correlation groups: signals gathered toward one incident',
  CORRULE: 'correlation rules',
  COUNTER: 'list counters (totals kept on write)',
  ESCPOLICY: 'escalation policies: who is paged at each level, and how often',
  EXEC: 'playbook executions',
  FP: 'open-signal fingerprint claims (duplicates merge into one signal)',
  HANDOFF: 'handoff notices already sent: a member told once that their on-call shift started',
  HEARTBEAT: 'heartbeats: jobs expected to ping, and their last ping',
  HIST: 'ticket history events',
  INC: 'incidents, their comments, messages and analyses links',
  INCSEQ: 'the daily incident-id sequence',
  INTEGRATION: "members' integrations (OAuth connections, phone numbers) and the workspace's chat webhook",
  INVITE: 'invitations',
  MAINT: 'maintenance windows: services whose alerts open no incident for a while',
  MEMBER: 'workspace members (index partition)',
  METRIC: 'hourly rollups the dashboard reads (incidents and signals)',
  NOTIFY: "an incident's notification deliveries and their attempts",
  OAUTH_STATE: 'OAuth states already used (each is single-use)',
  ONCALL: 'on-call shifts',
  OUTSIDE: 'outside recipients',
  PLAYBOOK: "playbook heads, and each playbook's published versions",
  OUTCOME: 'learned analysis outcomes, one per incident',
  PATTERN: 'incident patterns learned from outcomes',
  PROBLEM: 'problem tickets',
  PUSHSUB: "members' Web Push subscriptions, one partition per member",
  RUN: 'pipeline runs',
  RUNRAW: 'pipeline runs as the sender posted them',
  SCHEDULE: 'on-call schedules (rotation layers) and their overrides',
  SERVICE: 'the service map: services, their name claims and dependencies',
  SIG: 'signals',
  SLA: 'SLA policies with the counters of the incidents they govern',
  SLADUE: 'pending SLA deadlines of incidents, by deadline (the SLA sweep reads the passed ones)',
  TICKET: 'the unified ticket list (index partition)',
  WEBHOOK: 'webhook signing secrets per sender',
  INTKEY: 'paging-tool integration keys (routing keys, GenieKeys) per service',
} as const;

export const ACCOUNT_PREFIXES = {
  EMAIL: 'an account found by its e-mail address',
  OAUTH: 'an account found by its OAuth provider identity',
  SSODOMAIN: 'a workspace found by its SSO e-mail domain',
} as const;

/** Keys outside workspaces and accounts: limiter windows, and the directory jobs walk. */
export const OTHER_PREFIXES = {
  LIMIT: 'rate-limit windows, per limiter and subject',
  DIRECTORY: 'the workspace directory, read only by jobs',
} as const;
