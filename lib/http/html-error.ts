import type { RouteSpec } from './route.ts';

/** A route whose success is a page for people (the acknowledge link) answers its errors as pages too. */
export const answersHtml = (spec: RouteSpec | undefined): boolean => {
  const response = spec?.response;
  return response !== undefined && 'contentType' in response && response.contentType.startsWith('text/html');
};

/** A program that asks for JSON and not HTML still gets the error envelope from a page's route. */
export const wantsJsonOnly = (headers: Readonly<Record<string, string | undefined>> | null): boolean => {
  const accept = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'accept')?.[1] ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};
