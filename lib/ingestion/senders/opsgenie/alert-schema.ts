import * as z from 'zod/mini';
import { optionalText, senderObject } from '#lib/ingestion/schema-kit.ts';

/** Opsgenie's limits: an alias (its deduplication key) up to 512 characters, a message up to 130. */
const MAX_ALIAS_LENGTH = 512;

/** `POST /v2/alerts` as senders use it (docs.opsgenie.com, Alert API, "Create Alert"). */
export const createAlertSchema = z.object({
  message: z.string().check(z.trim(), z.minLength(1), z.maxLength(130)),
  alias: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_ALIAS_LENGTH))),
  description: optionalText,
  priority: z.optional(z.enum(['P1', 'P2', 'P3', 'P4', 'P5'])),
  tags: z.nullish(z.array(z.string())),
  details: z.nullish(senderObject),
  entity: optionalText,
  source: optionalText,
  note: optionalText,
  user: optionalText,
});

/** Close and acknowledge bodies: all optional. */
export const alertActionSchema = z.object({ source: optionalText, user: optionalText, note: optionalText });

/**
 * What the normalizer reads: the route's action and the alert it is about (the path's identifier for close and
 * acknowledge), beside the sender's body.
 */
export const opsgenieDeliverySchema = z.object({
  action: z.enum(['create', 'close', 'acknowledge']),
  alias: z.string().check(z.minLength(1), z.maxLength(MAX_ALIAS_LENGTH)),
  alert: z.record(z.string(), z.unknown()),
});

export const alertIdentifierParams = z.object({
  identifier: z.string().check(z.minLength(1), z.maxLength(MAX_ALIAS_LENGTH)),
});

/** `tiny` ids are not kept: an alert is named by its alias (docs/decisions.md). */
export const alertIdentifierQuery = z.object({ identifierType: z.optional(z.enum(['id', 'alias'])) });
