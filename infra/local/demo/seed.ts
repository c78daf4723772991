import { demoClient, type Headers } from './client.ts';
import { analyse, blastRadius } from './insights.ts';
import { playIncidents, workCorrelatedIncidents } from './incidents.ts';
import { createKey, inviteTeam, memberIds, registerAdmin } from './people.ts';
import { createPlaybooks, executePartly } from './playbooks.ts';
import { sendCheckSignals, sendWebhooks } from './signals.ts';
import {
  assignOnCall,
  buildServiceMap,
  createCorrelationRules,
  createSilentHours,
  createSlaPolicies,
  setUpIms,
} from './workspace.ts';

export interface SeedOptions {
  baseUrl: string;
  /** Resolves once the queue workers have nothing left to do (correlation of the signals sent). */
  settled: () => Promise<unknown>;
  now?: Date;
}

export interface DemoWorkspace {
  baseUrl: string;
  email: string;
  password: string;
  /** A key with every scope, shown only here. */
  apiKey: string;
  signals: number;
  incidentsFromSignals: number;
}

const EVERY_SCOPE = [
  'incidents:read',
  'incidents:write',
  'postmortems:read',
  'postmortems:write',
  'analytics:read',
  'integrations:read',
  'integrations:write',
  'ingestion:write',
];

/** One key per sending tool, as each would be configured with its own. */
const SENDERS: Record<string, string> = {
  'codehost-a': 'Code host A webhooks',
  'codehost-b': 'Code host B webhooks',
  'codehost-c': 'CI webhooks',
  'metrics-alerts': 'Alertmanager',
  monitoring: 'Monitoring',
  paging: 'Paging',
  orchestrator: 'Cluster events',
  webhook: 'Uptime checker',
};

/**
 * Fills a new workspace through the HTTP API alone, as a team would in its first week: people, the IMS
 * configuration, the service map and policies, a week of signals, incidents worked through every status,
 * playbooks, an analysis and blast-radius reports.
 */
export const seedDemo = async ({ baseUrl, settled, now = new Date() }: SeedOptions): Promise<DemoWorkspace> => {
  const client = demoClient(baseUrl);
  const admin = await registerAdmin(client, 'Acme Ops');
  const [engineers, apiKey, senderKeys] = await Promise.all([
    inviteTeam(client, admin),
    createKey(client, admin, 'demo', EVERY_SCOPE),
    Promise.all(
      Object.entries(SENDERS).map(async ([sender, name]) => {
        const key = await createKey(client, admin, name, ['ingestion:write']);
        return [sender, { 'x-api-key': key }] as const;
      }),
    ),
    setUpIms(client, admin),
  ]);
  const ids = await memberIds(client, admin);
  const rota = [admin.email, ...engineers.map((engineer) => engineer.email)].map((email) => ids[email] ?? '');
  const [services] = await Promise.all([
    buildServiceMap(client, admin.auth),
    createSlaPolicies(client, admin.auth),
    createSilentHours(client, admin.auth),
    createCorrelationRules(client, admin.auth),
    assignOnCall(client, admin.auth, rota, now),
  ]);

  const keys: Record<string, Headers> = Object.fromEntries(senderKeys);
  const [checks, webhooks] = await Promise.all([
    sendCheckSignals(client, { 'x-api-key': apiKey }, now),
    sendWebhooks(client, keys, now),
  ]);
  await settled();

  const manual = await playIncidents(client, engineers);
  const incidentsFromSignals = await workCorrelatedIncidents(client, engineers[0] ?? admin, manual.all);
  const investigating = manual.byStatus.INVESTIGATION ?? '';
  const playbookId = await createPlaybooks(client, admin.auth);
  await Promise.all([
    executePartly(client, admin.auth, playbookId, investigating, engineers[0]?.email ?? admin.email),
    analyse(client, admin.auth, manual.byStatus.RESOLVED ?? ''),
    blastRadius(client, admin.auth, services, manual.byStatus.MITIGATED ?? ''),
  ]);
  await settled();
  return {
    baseUrl,
    email: admin.email,
    password: admin.password,
    apiKey,
    signals: checks + webhooks,
    incidentsFromSignals,
  };
};
