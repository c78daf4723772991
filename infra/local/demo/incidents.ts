import { API, type DemoClient, type Headers, inBatches } from './client.ts';
import type { Person } from './people.ts';

/** A reported incident and how far the team has taken it. */
interface Story {
  summary: string;
  priority: string;
  serviceArea: string;
  description: string;
  /** Statuses it moves through after OPEN, in order; RESOLVED goes through the resolve route. */
  path: string[];
  comments: string[];
}

const STORIES: Story[] = [
  {
    summary: 'Search results empty for some queries',
    priority: 'MEDIUM',
    serviceArea: 'search',
    description: 'Customers report empty result pages for queries with accents.',
    path: [],
    comments: [],
  },
  {
    summary: 'Mobile logins slow in the evening',
    priority: 'MEDIUM',
    serviceArea: 'auth',
    description: 'Login takes 6-8 s between 19:00 and 21:00.',
    path: ['ACKNOWLEDGED'],
    comments: ['Seen it on my phone too, looking at the auth dashboards.'],
  },
  {
    summary: 'Checkout intermittently times out',
    priority: 'HIGH',
    serviceArea: 'checkout',
    description: 'About 1 in 50 checkouts time out after 30 s.',
    path: ['ACKNOWLEDGED', 'INVESTIGATION'],
    comments: ['Timeouts line up with payments-api GC pauses.', 'Capturing a heap profile on payments-api-2.'],
  },
  {
    summary: 'Catalog images missing after CDN change',
    priority: 'HIGH',
    serviceArea: 'catalog',
    description: 'Product images 404 since this morning’s CDN configuration change.',
    path: ['ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED'],
    comments: ['The new origin path drops the /img prefix.', 'Rolled the CDN config back; images load again.'],
  },
  {
    summary: 'Queue consumers stuck after deploy',
    priority: 'CRITICAL',
    serviceArea: 'queue,payments-api',
    description: 'Payment confirmations stopped being processed after the 14:00 deploy.',
    path: ['ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED', 'RESOLVED'],
    comments: [
      'Consumers hold a lock the new release never releases.',
      'Restarted the consumers; backlog draining.',
      'Fixed in the next release: the lock now has a lease.',
    ],
  },
  {
    summary: 'Password reset e-mails delayed',
    priority: 'LOW',
    serviceArea: 'auth',
    description: 'Reset e-mails arrive 10-20 minutes late.',
    path: ['ACKNOWLEDGED', 'RESOLVED', 'CLOSED'],
    comments: ['The mail provider had a queue backlog; nothing to change on our side.'],
  },
];

export interface IncidentIds {
  /** Incident ids by the status they were left in. */
  byStatus: Record<string, string>;
  all: string[];
}

const move = async (client: DemoClient, id: string, status: string, auth: Headers): Promise<void> => {
  if (status === 'RESOLVED') await client.call('POST', `${API}/incident-ticket/resolve/${id}`, { headers: auth });
  else await client.call('PUT', `${API}/incident-ticket/${id}`, { body: { status }, headers: auth });
};

/** Reports each incident as an engineer would, then takes it along its path with comments on the way. */
const play = async (client: DemoClient, story: Story, reporter: Person, responder: Person): Promise<string> => {
  const { path, comments, ...fields } = story;
  const created = await client.call<{ id: string }>('POST', `${API}/incident-ticket`, {
    body: { ...fields, environment: 'production', region: 'eu-central-1', source: 'manual' },
    headers: reporter.auth,
  });
  if (path.length > 0) {
    await client.call('PUT', `${API}/incident-ticket/${created.id}`, {
      body: { assignedToEmail: responder.email },
      headers: reporter.auth,
    });
  }
  for (const [index, status] of path.entries()) {
    await move(client, created.id, status, responder.auth);
    const comment = comments[index];
    if (comment) {
      await client.call('POST', `${API}/incident-ticket/comment`, {
        body: { ticketId: created.id, content: comment },
        headers: responder.auth,
      });
    }
  }
  return created.id;
};

export const playIncidents = async (client: DemoClient, engineers: Person[]): Promise<IncidentIds> => {
  const pick = (index: number): Person => engineers[index % engineers.length] as Person;
  const ids = await inBatches(STORIES, 3, (story) =>
    play(client, story, pick(STORIES.indexOf(story)), pick(STORIES.indexOf(story) + 1)),
  );
  const byStatus = Object.fromEntries(STORIES.map((story, index) => [story.path.at(-1) ?? 'OPEN', ids[index] ?? '']));
  return { byStatus, all: ids };
};

interface IncidentSummary {
  id: string;
  status: string;
}

/** The incidents correlation opened from the week's signals: the older half acknowledged, then resolved. */
export const workCorrelatedIncidents = async (
  client: DemoClient,
  responder: Person,
  manual: readonly string[],
): Promise<number> => {
  const listed = await client.call<IncidentSummary[]>('GET', `${API}/incident-ticket?limit=100`, {
    headers: responder.auth,
  });
  const correlated = listed.filter((incident) => !manual.includes(incident.id)).reverse();
  const older = correlated.slice(0, Math.floor(correlated.length / 2));
  await inBatches(older, 3, async ({ id }) => {
    await move(client, id, 'ACKNOWLEDGED', responder.auth);
    await client.call('POST', `${API}/incident-ticket/comment`, {
      body: { ticketId: id, content: 'Alert cleared on its own; keeping an eye on it.' },
      headers: responder.auth,
    });
    await move(client, id, 'RESOLVED', responder.auth);
  });
  return correlated.length;
};
