import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod/mini';
import { ok } from '#lib/http/envelope.ts';
import { errorResponse, resultResponse } from '#lib/http/response.ts';
import { chatSignatureHeaders } from '#lib/integrations/chat/chat-signature.ts';
import type { Clock } from '#lib/ports/clock.ts';

const HOOK_PATH = /^\/_local\/chat\/hooks\/([\w-]{1,64})$/;

/** What `POST /_local/chat/press` takes: whose press, of which button, and what to sign it with. */
const pressBody = z.object({
  workspaceId: z.string(),
  signingSecret: z.string(),
  chatUserId: z.string(),
  action: z.enum(['acknowledge', 'resolve', 'escalate']),
  incidentId: z.string(),
});

/**
 * A chat app on the local server, standing in for Slack (docs/running-locally.md): `POST /_local/chat/hooks/<name>`
 * is an incoming webhook that keeps what is posted to it (pages, and the replies to presses), `GET` lists it;
 * `POST /_local/chat/press` posts a button press to this server's interactions route as Slack would (form-encoded,
 * signed with the given secret), its replies going to the hook `replies`, and answers what the route answered.
 */
export const createChatStandIn = (clock: Clock) => {
  const hooks = new Map<string, unknown[]>();

  const press = async (host: string, body: Buffer): Promise<APIGatewayProxyResult> => {
    let input: z.output<typeof pressBody>;
    try {
      input = pressBody.parse(JSON.parse(body.toString('utf8')));
    } catch (error) {
      return errorResponse(400, 'Not a press', [(error as Error).message.slice(0, 300)], randomUUID());
    }
    const payload = {
      type: 'block_actions',
      user: { id: input.chatUserId },
      response_url: `http://${host}/_local/chat/hooks/replies`,
      actions: [{ action_id: input.action, value: input.incidentId, action_ts: `${clock.now().getTime() / 1000}` }],
    };
    const form = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const url = `http://${host}/api/v1/integrations/chat/interactions?workspace=${encodeURIComponent(input.workspaceId)}`;
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...chatSignatureHeaders(input.signingSecret, form, clock.now()),
      },
      body: form,
    });
    return { statusCode: answer.status, headers: { 'content-type': 'application/json' }, body: await answer.text() };
  };

  /** The answer to a `/_local/chat` request, or undefined for any other path. */
  const handle = async (
    method: string,
    path: string,
    headers: Record<string, string | undefined>,
    body: Buffer,
  ): Promise<APIGatewayProxyResult | undefined> => {
    if (method === 'POST' && path === '/_local/chat/press') return press(headers.host ?? 'localhost', body);
    const name = HOOK_PATH.exec(path)?.[1];
    if (!name) return undefined;
    if (method === 'GET') return resultResponse(ok(hooks.get(name) ?? []), randomUUID());
    if (method !== 'POST') return undefined;
    try {
      hooks.set(name, [...(hooks.get(name) ?? []), JSON.parse(body.toString('utf8'))]);
    } catch {
      return errorResponse(400, 'Not JSON', ['body: a chat message is JSON'], randomUUID());
    }
    return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  };

  return { handle };
};

export type ChatStandIn = ReturnType<typeof createChatStandIn>;
