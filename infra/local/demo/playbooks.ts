import { API, type DemoClient, type Headers, inBatches } from './client.ts';

const PLAYBOOKS = [
  {
    title: 'Payments degraded',
    description: 'First steps when checkout or payments-api errors or slows down',
    steps: [
      { title: 'Check the payments-api dashboards', instructions: 'Error rate, p99 latency, GC pauses' },
      { title: 'Check the payment provider status page' },
      { title: 'Fail over to the secondary provider', instructions: 'Feature flag payments.secondary', optional: true },
      { title: 'Post an update for customer support' },
    ],
    triggerConditions: { serviceArea: ['checkout', 'payments-api'], priority: ['HIGH', 'CRITICAL'] },
    publish: true,
  },
  {
    title: 'Database pressure',
    description: 'Disk, replication lag or slow queries on the primary',
    steps: [
      { title: 'Check disk and replication lag' },
      { title: 'Kill runaway queries', optional: true },
      { title: 'Add disk or promote a replica' },
    ],
    triggerConditions: { serviceArea: 'db', keywords: ['disk', 'replication', 'slow query'] },
    publish: true,
  },
  {
    title: 'CDN rollback',
    description: 'Roll back a CDN configuration change',
    steps: [{ title: 'Find the last good configuration' }, { title: 'Roll back and purge' }],
    triggerConditions: { keywords: ['cdn'] },
    publish: false,
  },
];

/** Playbooks, two published and one still a draft; returns the first one's id. */
export const createPlaybooks = async (client: DemoClient, auth: Headers): Promise<string> => {
  const ids = await inBatches(PLAYBOOKS, 3, async ({ publish, ...playbook }) => {
    const created = await client.call<{ id: string }>('POST', `${API}/playbooks`, { body: playbook, headers: auth });
    if (publish) await client.call('POST', `${API}/playbooks/${created.id}/publish`, { headers: auth });
    return created.id;
  });
  return ids[0] ?? '';
};

/** Runs the playbook on an incident still under investigation: two steps done, one note, the rest to do. */
export const executePartly = async (
  client: DemoClient,
  auth: Headers,
  playbookId: string,
  incidentId: string,
  assignedToEmail: string,
): Promise<string> => {
  const { executionId } = await client.call<{ executionId: string }>('POST', `${API}/playbooks/${playbookId}/execute`, {
    body: { incidentId, assignedToEmail },
    headers: auth,
  });
  const execution = `${API}/playbooks/executions/${executionId}`;
  await client.call('POST', `${execution}/steps/0/complete`, { body: { note: 'GC pauses of 4 s' }, headers: auth });
  await client.call('POST', `${execution}/steps/1/complete`, { body: { note: 'Provider all green' }, headers: auth });
  await client.call('POST', `${execution}/actions`, {
    body: { description: 'Paged the payments team lead' },
    headers: auth,
  });
  return executionId;
};
