/**
 * The web console (console/, docs/console.md): one HTML page for every route the browser handles, and the
 * two files esbuild builds from console/. The paths are the ones links in e-mail use (`<APP_URL>/incidents/<id>`,
 * `/accept-invite?token=`, `/reset-password?email=`), so a link opens the page that answers it.
 */
const BUILT_ASSETS = ['app.js', 'app.css'] as const;

/**
 * What makes the console an installable app with push (docs/console.md, "Push notifications"), served at its root:
 * a service worker's scope is the folder it is served from, and the whole console is its to control.
 */
const APP_FILES = ['service-worker.js', 'manifest.webmanifest', 'icon-192.png', 'icon-512.png'] as const;

export const CONSOLE_ASSETS = [...BUILT_ASSETS, ...APP_FILES] as const;
export type ConsoleAsset = (typeof CONSOLE_ASSETS)[number];

/** Where the built files are served, below the console's base; clear of `/api/v1`. */
const CONSOLE_ASSET_DIR = 'console';

/** The pages, as API Gateway resources: each answers the same HTML and the browser picks the view. */
export const CONSOLE_PAGES = [
  '/',
  '/sign-in',
  '/accept-invite',
  '/reset-password',
  '/incidents',
  '/incidents/{id}',
  '/signals',
  '/on-call',
  '/heartbeats',
  '/integration-keys',
  '/link-chat',
] as const;

/** Where a file is served: the built script and stylesheet under `/console/`, the app's files at the root. */
export const consoleAssetPath = (asset: ConsoleAsset): string =>
  (APP_FILES as readonly string[]).includes(asset) ? `/${asset}` : `/${CONSOLE_ASSET_DIR}/${asset}`;

/** Every path the console answers (a GET each): its pages and its built files. */
export const consolePaths = (): string[] => [...CONSOLE_PAGES, ...CONSOLE_ASSETS.map(consoleAssetPath)];

export type ConsoleRequest = { kind: 'page' } | { kind: 'asset'; asset: ConsoleAsset };

const PAGE_PATTERNS = CONSOLE_PAGES.map(
  (page) => new RegExp(`^${page.replace(/\{[^}]+\}/g, '[^/]+').replace(/\/$/, '')}/?$`),
);

export const isConsoleAsset = (name: string): name is ConsoleAsset =>
  (CONSOLE_ASSETS as readonly string[]).includes(name);

/** What a path below the console's base asks for, or undefined when the console has no such path. */
export const consoleRequest = (path: string): ConsoleRequest | undefined => {
  const assetPrefix = `/${CONSOLE_ASSET_DIR}/`;
  if (path.startsWith(assetPrefix)) {
    const name = path.slice(assetPrefix.length);
    return (BUILT_ASSETS as readonly string[]).includes(name)
      ? { kind: 'asset', asset: name as ConsoleAsset }
      : undefined;
  }
  const appFile = APP_FILES.find((file) => path === `/${file}`);
  if (appFile) return { kind: 'asset', asset: appFile };
  return PAGE_PATTERNS.some((pattern) => pattern.test(path)) ? { kind: 'page' } : undefined;
};

/**
 * The page's HTML. `<base>` is the console's root (`/` locally, `/<stage>/` behind the stage URL), so the
 * relative file URLs and the browser's router work at any depth and under any prefix.
 */
export const consolePage = (basePath: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${encodeURI(basePath.replace(/\/?$/, '/'))}">
<title>Incident console</title>
<link rel="icon" href="icon-192.png">
<link rel="manifest" href="manifest.webmanifest">
<link rel="apple-touch-icon" href="icon-192.png">
<meta name="theme-color" content="#b42318">
<link rel="stylesheet" href="${CONSOLE_ASSET_DIR}/app.css">
<script defer src="${CONSOLE_ASSET_DIR}/app.js"></script>
</head>
<body>
<div id="app"><p class="loading">Loading…</p></div>
<noscript>The incident console needs JavaScript.</noscript>
</body>
</html>
`;

/**
 * Nothing but this origin's files and API: no inline script, no framing (the page holds tokens), and no
 * referrer, so an invitation or reset URL never leaves in a Referer header.
 */
export const CONSOLE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;
