import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod/mini carries no messages of its own; the English locale gives the ones the classic API did, which
 * `errors` answers field by field. Imported by every module that reads a zod issue's message.
 */
config(en());
