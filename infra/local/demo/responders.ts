import type { Agenda } from './agenda.ts';
import { API, type DemoClient } from './client.ts';
import { comment, move } from './incidents.ts';
import type { Person } from './people.ts';

const MINUTE = 60_000;
/** Incidents opened longer ago than this before the demo's end were resolved; newer ones are still being worked. */
const STILL_WORKED_MS = 24 * 60 * MINUTE;
const DONE = ['RESOLVED', 'CLOSED'];

interface IncidentSummary {
  id: string;
  status: string;
  createdAt: string;
}

/**
 * How the on-call engineers answer the incidents correlation opens: acknowledged within minutes of the
 * page, and those older than a day resolved within the hour. Returns the check the agenda runs after
 * each act: it finds the incidents opened since and plans their responses. An incident in `known` (a
 * person reported it, or its response is planned) is left alone.
 */
export const respondToOpenedIncidents = (
  agenda: Agenda,
  client: DemoClient,
  responders: Person[],
  known: Set<string>,
  end: Date,
): (() => Promise<void>) => {
  let answered = 0;
  const statusOf = async (id: string, responder: Person): Promise<string> =>
    (await client.call<{ status: string }>('GET', `${API}/incident-ticket/${id}`, { headers: responder.auth })).status;

  const plan = (incident: IncidentSummary): void => {
    const responder = responders[answered % responders.length] as Person;
    const opened = Date.parse(incident.createdAt);
    // Spread over a few minutes so the week's times to acknowledge and resolve vary as real ones do.
    const acknowledgeAfter = (2 + ((answered * 3) % 7)) * MINUTE;
    const resolveAfter = (25 + ((answered * 11) % 45)) * MINUTE;
    answered += 1;
    agenda.at(new Date(opened + acknowledgeAfter), async () => {
      if ((await statusOf(incident.id, responder)) === 'OPEN')
        await move(client, incident.id, 'ACKNOWLEDGED', responder.auth);
    });
    if (end.getTime() - opened < STILL_WORKED_MS) return;
    agenda.at(new Date(opened + resolveAfter), async () => {
      if (DONE.includes(await statusOf(incident.id, responder))) return;
      await comment(client, incident.id, 'Alert cleared after the fix; keeping an eye on it.', responder.auth);
      await move(client, incident.id, 'RESOLVED', responder.auth);
    });
  };

  return async () => {
    const [first] = responders;
    if (!first) return;
    const newest = await client.call<IncidentSummary[]>('GET', `${API}/incident-ticket?limit=20`, {
      headers: first.auth,
    });
    for (const incident of newest.reverse()) {
      if (known.has(incident.id)) continue;
      known.add(incident.id);
      plan(incident);
    }
  };
};
