import { createHash } from 'node:crypto';
import type * as z from 'zod/mini';
import { UnauthorizedError } from '#lib/contract/errors.ts';
import { fieldMessages } from '#lib/contract/field-messages.ts';
import type { AccountScope } from '#lib/identity/scope.ts';
import type { ForeignAnswer } from '../events-v2/enqueue.ts';
import { ingestDelivery } from '#lib/ingestion/ingest-delivery.ts';
import { PayloadError } from '#lib/ingestion/payload-error.ts';
import { authenticateEventCredential } from '#lib/ingestion/integration-keys/integration-key-service.ts';
import { alertActionSchema, createAlertSchema } from './alert-schema.ts';

export interface AlertCall {
  body: unknown;
  rawBody: string;
  headers: Record<string, string>;
  requestId: string;
}

type Action = 'create' | 'close' | 'acknowledge';

const GENIE_KEY = /^GenieKey\s+(\S+)$/i;

/** Opsgenie answers every accepted call 202 with the seconds it took and a request id to poll. */
const answer = (
  status: number,
  requestId: string,
  started: number,
  fields: Record<string, unknown>,
): ForeignAnswer => ({
  status,
  body: { ...fields, took: Number(((performance.now() - started) / 1000).toFixed(3)), requestId },
});

/** Opsgenie's 422: one message per bad field, keyed by the field. */
const unprocessable = (requestId: string, started: number, errors: readonly string[]): ForeignAnswer =>
  answer(422, requestId, started, {
    message: 'Request body is not processable. Please check the errors.',
    errors: Object.fromEntries(
      errors.map((error) => {
        const [field, ...message] = error.split(': ');
        return [field ?? 'body', message.join(': ')];
      }),
    ),
  });

/** An alert created without an alias gets one from its message, as Opsgenie deduplicates on the message then. */
const aliasOf = (body: Record<string, unknown>): string =>
  typeof body.alias === 'string' && body.alias
    ? body.alias
    : createHash('sha256').update(String(body.message)).digest('hex').slice(0, 32);

const receive = async (
  scope: AccountScope,
  action: Action,
  identifier: string | undefined,
  call: AlertCall,
): Promise<ForeignAnswer> => {
  const started = performance.now();
  const key = GENIE_KEY.exec(call.headers.authorization ?? '')?.[1];
  if (!key) throw new UnauthorizedError('Send Authorization: GenieKey <integration key>');
  const schema: z.ZodMiniType = action === 'create' ? createAlertSchema : alertActionSchema;
  const body = call.body ?? {};
  const shape = schema.safeParse(body);
  if (!shape.success) return unprocessable(call.requestId, started, fieldMessages('body', shape.error));
  const credential = await authenticateEventCredential(scope, key);
  const alias = identifier ?? aliasOf(body as Record<string, unknown>);
  try {
    await ingestDelivery(credential.scope, {
      sender: 'opsgenie',
      body: { action, alias, alert: body },
      rawBody: call.rawBody,
      headers: call.headers,
      serviceId: credential.serviceId,
    });
  } catch (error) {
    if (error instanceof PayloadError) return unprocessable(call.requestId, started, error.errors);
    throw error;
  }
  return answer(202, call.requestId, started, { result: 'Request will be processed' });
};

/** `POST /api/v1/opsgenie/v2/alerts` (docs/ingestion.md, "Opsgenie Alert API"). */
export const createAlert = (scope: AccountScope, call: AlertCall): Promise<ForeignAnswer> =>
  receive(scope, 'create', undefined, call);

/**
 * `POST .../alerts/:identifier/close` and `/acknowledge`. An alert's id here is its alias (creating one answers
 * no id, as Opsgenie's asynchronous create does not), so `identifierType` `id` and `alias` name the same alert.
 */
export const actOnAlert = (
  scope: AccountScope,
  { action, identifier, ...call }: AlertCall & { action: 'close' | 'acknowledge'; identifier: string },
): Promise<ForeignAnswer> => receive(scope, action, identifier, call);
