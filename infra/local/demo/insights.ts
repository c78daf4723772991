import { setTimeout as sleep } from 'node:timers/promises';
import { API, type DemoClient, type Headers, inBatches } from './client.ts';
import type { ServiceIds } from './workspace.ts';

const ANALYSIS_WAIT_MS = 60_000;

/** Starts the analysis of an incident and waits until its four stages have run. */
export const analyse = async (client: DemoClient, auth: Headers, incidentId: string): Promise<string> => {
  const { analysisId } = await client.call<{ analysisId: string }>('POST', `${API}/assistant/analyse`, {
    body: { incidentId },
    headers: auth,
  });
  const deadline = Date.now() + ANALYSIS_WAIT_MS;
  for (let wait = 100; Date.now() < deadline; wait = Math.min(wait * 2, 1_000)) {
    // 404 until the last stage has run: this route shows completed analyses only.
    const reply = await client.send('GET', `${API}/assistant/analysis/${incidentId}`, undefined, auth);
    const status = reply.status === 200 ? (reply.body?.data as { status?: string } | undefined)?.status : undefined;
    if (status === 'COMPLETE') return analysisId;
    if (reply.status !== 200 && reply.status !== 404) throw new Error(`the analysis of ${incidentId}: ${reply.status}`);
    await sleep(wait);
  }
  throw new Error(`the analysis of ${incidentId} did not complete within ${ANALYSIS_WAIT_MS / 1000} s`);
};

/** Blast-radius reports: the shared database, and an incident by its service area. */
export const blastRadius = (
  client: DemoClient,
  auth: Headers,
  services: ServiceIds,
  incidentId: string,
): Promise<unknown[]> =>
  inBatches(
    [
      { serviceId: services.db, environment: 'production' },
      { serviceId: services['payments-api'] },
      { triggerId: incidentId },
    ],
    3,
    (body) => client.call('POST', `${API}/blast-radius/calculate`, { body, headers: auth }),
  );
