import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { installPorts } from '#lib/ports/port-set.ts';
import { INCIDENTS } from '../support/incidents.ts';
import type { TestClient } from '../support/local-stack.ts';

export type Auth = Record<string, string>;

/** The ticket's history events, chronological, from the tickets route. */
export const historyOf = async (client: TestClient, auth: Auth, ticketId: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `/api/v1/tickets/history?ticketId=${ticketId}&limit=100`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** The incident's message thread, chronological. */
export const messagesOf = async (client: TestClient, auth: Auth, ticketId: string): Promise<Record<string, any>[]> => {
  const reply = await client.request('GET', `${INCIDENTS}/message/${ticketId}`, undefined, auth);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

/** `INC-YYYYMMDD-XXXX` -> XXXX as a number (four digits or more). */
export const numberOf = (id: string): number => Number(id.split('-')[2]);

/** Runs `body` with the stack's clock stopped at `iso`, then gives the stack its own clock back. */
export const at = async <T>(client: TestClient, iso: string, body: () => Promise<T>): Promise<T> => {
  const { ports: runtime } = client.stack;
  installPorts({ ...runtime, clock: { now: () => new Date(iso) } });
  try {
    return await body();
  } finally {
    installPorts(runtime);
  }
};

/**
 * Fault setup: the workspace's incident counter of `day` (YYYYMMDD) as if `seq` incidents had been
 * created that day, which the API would need thousands of requests to reach.
 */
export const setDayCounter = async (
  client: TestClient,
  workspaceId: string,
  day: string,
  seq: number,
): Promise<void> => {
  const { table } = client.stack.ports;
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { pk: `WS#${workspaceId}#INCSEQ`, sk: day },
      UpdateExpression: 'SET seq = :seq, #type = :type, workspaceId = :workspaceId',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':seq': seq, ':type': 'INCIDENT_DAY_COUNTER', ':workspaceId': workspaceId },
    }),
  );
};
