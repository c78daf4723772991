import type * as z from 'zod/mini';
import './zod-locale.ts';

export type RequestPart = 'params' | 'query' | 'body';

/** One readable message per bad field: `priority: Invalid option: expected one of ...`. */
export const fieldMessages = (part: RequestPart, error: z.core.$ZodError): string[] =>
  error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : part;
    return `${field}: ${issue.message}`;
  });
