import { createAgenda } from './agenda.ts';
import { demoClient, type Headers } from './client.ts';
import type { DemoClock } from './demo-clock.ts';
import { blastRadius } from './insights.ts';
import { planIncidents } from './incidents.ts';
import { createKey, inviteTeam, memberIds, registerAdmin, signIn } from './people.ts';
import { createPlaybooks, executePartly } from './playbooks.ts';
import { respondToOpenedIncidents } from './responders.ts';
import { planShowcase } from './showcase.ts';
import { loadSenderHeaders, planCheckSignals, planWebhooks } from './signals.ts';
import { KEY_SCOPES } from '#lib/identity/caller.ts';
import type { IngestionSender } from '#lib/ingestion/senders/index.ts';
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
  /** Resolves once the queue workers have nothing left to do (correlation of the signals sent, notifications). */
  settled: () => Promise<unknown>;
  /** The service's clock, which the seeding moves through the week it replays. */
  clock: DemoClock;
}

export interface DemoWorkspace {
  baseUrl: string;
  email: string;
  password: string;
  /** A key with every scope, shown only here. */
  apiKey: string;
  signals: number;
  /** The incident the showcase analysis explains. */
  showcaseIncidentId: string;
}

/** One key per sending tool, as each would be configured with its own, named as its team would name it. */
const SENDER_KEYS = {
  'codehost-a': 'Code host A webhooks',
  'codehost-b': 'Code host B webhooks',
  'codehost-c': 'CI webhooks',
  'metrics-alerts': 'Alertmanager',
  monitoring: 'Monitoring',
  paging: 'Paging',
  orchestrator: 'Cluster events',
  webhook: 'Uptime checker',
  eventbridge: 'AWS deployments',
} satisfies Partial<Record<IngestionSender, string>>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The workspace was set up this long before the demo's end, before the week it replays. */
const SET_UP_BEFORE_END_MS = (7 * 24 + 2) * HOUR;
/**
 * The payments playbook was started on the checkout timeouts (reported 27 hours before the end, under
 * investigation 15 minutes later) an hour and twenty minutes after they were reported.
 */
const PARTLY_RUN_BEFORE_END_MS = 25 * HOUR + 40 * MINUTE;

/**
 * Fills a new workspace through the HTTP API alone, as a team would have in its first week, with the
 * service's clock at each moment of that week: people, the IMS configuration, the service map and
 * policies a week ago; then a week of signals, deploys, incidents and their responses in the order they
 * happened, ending now: correlation opens incidents as their signals arrive, engineers acknowledge and
 * resolve them minutes later, and the showcase incident is analysed from its own evidence.
 */
export const seedDemo = async ({ baseUrl, settled, clock }: SeedOptions): Promise<DemoWorkspace> => {
  const client = demoClient(baseUrl);
  const end = clock.now();
  clock.travelTo(new Date(end.getTime() - SET_UP_BEFORE_END_MS));
  const setUp = await registerAdmin(client, 'Acme Ops');
  const [team, apiKey, senderKeys] = await Promise.all([
    inviteTeam(client, setUp),
    createKey(client, setUp, 'demo', KEY_SCOPES),
    Promise.all(
      Object.entries(SENDER_KEYS).map(async ([sender, name]) => {
        const key = await createKey(client, setUp, name, ['ingestion:write']);
        return [sender, { 'x-api-key': key }] as const;
      }),
    ),
    setUpIms(client, setUp),
  ]);
  const ids = await memberIds(client, setUp);
  const rota = [setUp.email, ...team.map((engineer) => engineer.email)].map((email) => ids[email] ?? '');
  const [services, playbookId] = await Promise.all([
    buildServiceMap(client, setUp.auth),
    createPlaybooks(client, setUp.auth),
    createSlaPolicies(client, setUp.auth),
    createSilentHours(client, setUp.auth),
    createCorrelationRules(client, setUp.auth),
    assignOnCall(client, setUp.auth, rota, end),
  ]);

  // Sessions last 15 minutes from their sign-in: the engineers sign in now, and their sessions hold
  // while the clock replays the week before.
  clock.backToNow();
  const [admin, ...engineers] = await Promise.all([setUp, ...team].map((person) => signIn(client, person)));
  if (!admin || engineers.length < 2) throw new Error('the demo needs the ADMIN and two engineers signed in');
  const [grace, linus] = engineers as [typeof admin, typeof admin];
  const keys: Record<string, Headers> = Object.fromEntries(senderKeys);
  const checks = { 'x-api-key': apiKey };
  const agenda = createAgenda(clock, settled);
  const known = new Set<string>();
  const signals =
    planCheckSignals(agenda, client, checks, end) + planWebhooks(agenda, client, keys, await loadSenderHeaders(), end);
  const stories = planIncidents(agenda, client, engineers, known, end);
  const showcase = planShowcase(
    agenda,
    client,
    { reporter: grace, responder: linus },
    { eventbridge: keys.eventbridge ?? {}, checks },
    playbookId,
    end,
  );
  agenda.at(new Date(end.getTime() - PARTLY_RUN_BEFORE_END_MS), () =>
    executePartly(client, admin.auth, playbookId, stories.INVESTIGATION ?? '', grace.email),
  );
  await agenda.run(respondToOpenedIncidents(agenda, client, engineers, known, end));
  clock.backToNow();
  await blastRadius(client, admin.auth, services, stories.MITIGATED ?? '');
  await settled();
  return {
    baseUrl,
    email: admin.email,
    password: admin.password,
    apiKey,
    signals,
    showcaseIncidentId: showcase(),
  };
};
