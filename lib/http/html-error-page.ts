import type { APIGatewayProxyResult } from 'aws-lambda';
import { peoplePage } from '#lib/contract/people-page.ts';
import { HTML_TYPE } from './content-types.ts';

/**
 * The error pages of routes that answer people (lib/http/html-error.ts decides which), loaded with the first
 * such error: every group's cold start carries the error envelope, few ever answer a page.
 */
/** Fixed words per status: the generic page carries no text from the request, so it needs no escaping. */
const WORDS: Record<number, { title: string; text: string }> = {
  400: {
    title: 'This link is not valid',
    text: 'It may have been cut or altered on its way. Open the incident in the console instead.',
  },
  403: {
    title: 'Not allowed',
    text: 'This link does not allow that any more. Open the incident in the console instead.',
  },
  404: { title: 'Page not found', text: 'There is no page at this address.' },
  409: {
    title: 'Already done',
    text: 'This was done already. Open the incident in the console to see where it stands.',
  },
  413: { title: 'Too large', text: 'The request was too large.' },
  429: { title: 'Too many requests', text: 'Wait a minute, then try again.' },
};

const FALLBACK = { title: 'Something went wrong', text: 'Try again in a moment.' };

/** `../` up to the console's root from `path`, so the link works under any stage prefix. */
const consoleRootFrom = (path: string): string => {
  const depth = path.split('/').filter(Boolean).length;
  return depth <= 1 ? './' : '../'.repeat(depth - 1);
};

export const genericErrorPage = (statusCode: number, path = '/'): string => {
  const { title, text } = WORDS[statusCode] ?? FALLBACK;
  return peoplePage(
    title,
    `<div class="card"><h1>${title}</h1><p>${text}</p>` +
      `<a class="button secondary" href="${consoleRootFrom(path)}">Open the console</a></div>`,
  );
};

export const htmlErrorResponse = (
  statusCode: number,
  page: string,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'content-type': HTML_TYPE, 'x-request-id': requestId, 'cache-control': 'no-store', ...headers },
  body: page,
});
