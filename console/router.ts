import { useEffect, useState } from 'preact/hooks';

/**
 * The console's root, from the page's `<base>`: `/` locally, `/<stage>/` behind API Gateway's stage URL. Every
 * path the console routes, and the API it calls, sits below it.
 */
const BASE = new URL(document.baseURI).pathname.replace(/\/?$/, '/');
export const API_BASE = `${BASE}api/v1`;

/** The route below the base: `/incidents/INC-…` whatever prefix the page is served under. */
const currentPath = (): string => `/${location.pathname.slice(BASE.length)}`;

export const href = (path: string): string => `${BASE}${path.replace(/^\//, '')}`;

const CHANGED = 'console:navigate';

export const navigate = (path: string, { replace = false } = {}): void => {
  if (replace) history.replaceState(null, '', href(path));
  else history.pushState(null, '', href(path));
  dispatchEvent(new Event(CHANGED));
  scrollTo(0, 0);
};

export interface Location {
  path: string;
  query: URLSearchParams;
}

const readLocation = (): Location => ({ path: currentPath(), query: new URLSearchParams(location.search) });

/** The current location, re-rendering on back, forward and `navigate`. */
export const useLocation = (): Location => {
  const [where, setWhere] = useState(readLocation);
  useEffect(() => {
    const update = () => setWhere(readLocation());
    addEventListener('popstate', update);
    addEventListener(CHANGED, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(CHANGED, update);
    };
  }, []);
  return where;
};

/** Where to go after signing in: the page a link opened, kept through the sign-in form. */
export const returnPath = (): string => `${currentPath()}${location.search}`;
