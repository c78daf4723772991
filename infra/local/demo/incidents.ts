import type { Agenda } from './agenda.ts';
import { API, type DemoClient, type Headers } from './client.ts';
import type { Person } from './people.ts';

/** A reported incident and how far the team has taken it. */
interface Story {
  summary: string;
  priority: string;
  serviceArea: string;
  description: string;
  /** When it was reported: days and hours before the demo's end. */
  reported: [daysAgo: number, hoursAgo: number];
  /** Statuses it moves through after OPEN, in order; RESOLVED goes through the resolve route. */
  path: string[];
  /** Minutes after the report at which each move of `path` was made. */
  minutes: number[];
  comments: string[];
}

const STORIES: Story[] = [
  {
    summary: 'Search results empty for some queries',
    priority: 'MEDIUM',
    serviceArea: 'search',
    description: 'Customers report empty result pages for queries with accents.',
    reported: [0, 2],
    path: [],
    minutes: [],
    comments: [],
  },
  {
    summary: 'Mobile logins slow in the evening',
    priority: 'MEDIUM',
    serviceArea: 'auth',
    description: 'Login takes 6-8 s between 19:00 and 21:00.',
    reported: [0, 4],
    path: ['ACKNOWLEDGED'],
    minutes: [6],
    comments: ['Seen it on my phone too, looking at the auth dashboards.'],
  },
  {
    summary: 'Checkout intermittently times out',
    priority: 'HIGH',
    serviceArea: 'checkout',
    description: 'About 1 in 50 checkouts time out after 30 s.',
    reported: [1, 3],
    path: ['ACKNOWLEDGED', 'INVESTIGATION'],
    minutes: [4, 15],
    comments: ['Timeouts line up with payments-api GC pauses.', 'Capturing a heap profile on payments-api-2.'],
  },
  {
    summary: 'Catalog images missing after CDN change',
    priority: 'HIGH',
    serviceArea: 'catalog',
    description: 'Product images 404 since this morning’s CDN configuration change.',
    reported: [1, 22],
    path: ['ACKNOWLEDGED', 'INVESTIGATION', 'MITIGATED'],
    minutes: [3, 11, 38],
    comments: ['The new origin path drops the /img prefix.', 'Rolled the CDN config back; images load again.'],
  },
  {
    summary: 'Password reset e-mails delayed',
    priority: 'LOW',
    serviceArea: 'auth',
    description: 'Reset e-mails arrive 10-20 minutes late.',
    reported: [5, 6],
    path: ['ACKNOWLEDGED', 'RESOLVED', 'CLOSED'],
    minutes: [18, 70, 75],
    comments: ['The mail provider had a queue backlog; nothing to change on our side.'],
  },
];

/** The incidents reported by people, by the status they were left in, filled in as the week is replayed. */
export type StoryIds = Record<string, string>;

const MINUTE = 60_000;

export const move = async (client: DemoClient, id: string, status: string, auth: Headers): Promise<void> => {
  if (status === 'RESOLVED') await client.call('POST', `${API}/incident-ticket/resolve/${id}`, { headers: auth });
  else await client.call('PUT', `${API}/incident-ticket/${id}`, { body: { status }, headers: auth });
};

export const comment = (client: DemoClient, ticketId: string, content: string, auth: Headers): Promise<unknown> =>
  client.call('POST', `${API}/incident-ticket/comment`, { body: { ticketId, content }, headers: auth });

/**
 * Plans each story as it went: an engineer reports it, assigns a colleague, who moves it along its path
 * at its minutes with a comment at each move. `reported` gets each new incident's id at once, so the
 * responders to correlation's incidents leave these alone.
 */
export const planIncidents = (
  agenda: Agenda,
  client: DemoClient,
  engineers: Person[],
  reported: Set<string>,
  end: Date,
): StoryIds => {
  const ids: StoryIds = {};
  const pick = (index: number): Person => engineers[index % engineers.length] as Person;
  for (const [index, story] of STORIES.entries()) {
    const {
      path,
      minutes,
      comments,
      reported: [daysAgo, hoursAgo],
      ...fields
    } = story;
    const [reporter, responder] = [pick(index), pick(index + 1)];
    const at = new Date(end.getTime() - daysAgo * 24 * 60 * MINUTE - hoursAgo * 60 * MINUTE);
    let id = '';
    agenda.at(at, async () => {
      ({ id } = await client.call<{ id: string }>('POST', `${API}/incident-ticket`, {
        body: { ...fields, environment: 'production', region: 'eu-central-1', source: 'manual' },
        headers: reporter.auth,
      }));
      reported.add(id);
      ids[path.at(-1) ?? 'OPEN'] = id;
      if (path.length > 0) {
        await client.call('PUT', `${API}/incident-ticket/${id}`, {
          body: { assignedToEmail: responder.email },
          headers: reporter.auth,
        });
      }
    });
    for (const [step, status] of path.entries()) {
      agenda.at(new Date(at.getTime() + (minutes[step] ?? 0) * MINUTE), async () => {
        await move(client, id, status, responder.auth);
        const note = comments[step];
        if (note) await comment(client, id, note, responder.auth);
      });
    }
  }
  return ids;
};
