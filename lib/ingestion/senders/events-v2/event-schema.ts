import * as z from 'zod/mini';
import { optionalDateTime, optionalText, senderObject } from '#lib/ingestion/schema-kit.ts';

/** PagerDuty's limit on a deduplication key. */
const MAX_DEDUP_KEY_LENGTH = 255;

const linkSchema = z.object({ href: z.string(), text: optionalText });
const imageSchema = z.object({ src: z.string(), href: optionalText, alt: optionalText });

/** An Events API v2 alert event (developer.pagerduty.com, "Send an Alert Event"). */
export const alertEventSchema = z.object({
  routing_key: z.string().check(z.trim(), z.minLength(1)),
  event_action: z.enum(['trigger', 'acknowledge', 'resolve']),
  dedup_key: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_DEDUP_KEY_LENGTH))),
  payload: z.optional(
    z.object({
      summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(1024)),
      source: z.string().check(z.trim(), z.minLength(1)),
      severity: z.enum(['critical', 'error', 'warning', 'info']),
      timestamp: optionalDateTime,
      component: optionalText,
      group: optionalText,
      class: optionalText,
      custom_details: z.nullish(z.unknown()),
    }),
  ),
  client: optionalText,
  client_url: optionalText,
  links: z.nullish(z.array(linkSchema)),
  images: z.nullish(z.array(imageSchema)),
});

/** A change event (developer.pagerduty.com, "Send a Change Event"). */
export const changeEventSchema = z.object({
  routing_key: z.string().check(z.trim(), z.minLength(1)),
  payload: z.object({
    summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(1024)),
    source: optionalText,
    timestamp: optionalDateTime,
    custom_details: z.nullish(senderObject),
  }),
  links: z.nullish(z.array(linkSchema)),
});
