/**
 * The architecture as import rules (docs/architecture.md): infra -> functions -> lib/app -> lib/routes
 * -> domain (lib/<capability>) -> store, ports, identity, contract. `npm test` runs them; a violation
 * fails the build.
 */
/** Folders below the domain, which every layer may use; `loading` is how any of them defers a module. */
const BASE = 'store|ports|identity|contract|log|loading';
/** Folders that are not domain capabilities. */
const NOT_DOMAIN = `${BASE}|http|routes|app|workers`;
const DOMAIN = `^lib/(?!(?:${NOT_DOMAIN})/)[^/]+/`;

module.exports = {
  forbidden: [
    {
      name: 'aws-sdk-only-in-adapters',
      comment:
        'Domain code talks to the table through repositories and the store kit, and to AWS through ports; ' +
        'only those two (and infra, tests, benchmarks) may import the SDK, which also keeps it out of bundles that do not need it.',
      severity: 'error',
      from: {
        pathNot: ['^lib/store/', '^lib/ports/', '^infra/', '^test/', '^bench/', '^esbuild\\.config\\.ts$'],
      },
      to: { path: '@aws-sdk/' },
    },
    {
      name: 'table-access-only-in-repositories',
      comment:
        "Reads, writes, queries and their expressions are a repository's (`<entity>-repository.ts`), through the " +
        'store kit; a service asks a repository. Types (Item, Page, QueryInput) may be used anywhere.',
      severity: 'error',
      from: { pathNot: ['^lib/store/', '-repository\\.ts$', '^infra/', '^test/', '^bench/'] },
      to: {
        path: '^lib/store/(?:queries|pages|conditional-writes|items|batch|add-to-counters|coalesced-counters|set-fields)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'keys-only-in-entity-modules',
      comment:
        "A key is built only in its entity's module: the repository, or the `<entity>-item.ts` that several " +
        'repositories share; everyone else asks those for a partition or a key.',
      severity: 'error',
      from: { pathNot: ['^lib/store/', '-repository\\.ts$', '-item\\.ts$', '^infra/', '^test/', '^bench/'] },
      to: { path: '^lib/store/(?:keys|key-prefixes)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-is-a-leaf',
      comment: 'The store kit knows tables, keys and items, nothing of HTTP or of any capability.',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: { path: '^lib/', pathNot: '^lib/store/' },
    },
    {
      name: 'base-stays-below',
      comment: 'Ports, identity, contract, logging and loading are used by the layers above and use none of them.',
      severity: 'error',
      from: { path: `^lib/(?:${BASE})/` },
      to: { path: `^lib/(?!(?:${BASE})/)` },
    },
    {
      name: 'http-knows-no-domain',
      comment: 'The HTTP layer reaches capabilities only through interfaces that lib/app wires (caller resolution).',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: `^lib/(?!(?:${BASE}|http)/)` },
    },
    {
      name: 'domain-knows-no-http',
      comment:
        'Services take a scope and an input and return values; envelopes, routes and composition live above them.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^lib/(?:http|routes|app|workers)/' },
    },
    {
      name: 'lib-knows-no-entries',
      comment: 'functions/ and infra/ compose lib/, never the other way round.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(?:functions|infra)/' },
    },
    {
      name: 'functions-know-no-infra',
      comment: 'A Lambda bundle must not pull in the CDK app.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^infra/' },
    },
    {
      name: 'console-is-browser-code',
      comment:
        'The web console runs in the browser and talks to the service only over its HTTP API. Of the server code ' +
        "it imports the records' types (type-only, erased from its bundle), so a drift is a compile error, the " +
        'lists of words the server declares in modules that import nothing but types, and the one module of times in ' +
        'words (which uses only Intl); no server code imports it (infra/console-build.ts names its entry by path).',
      severity: 'error',
      from: { path: '^console/' },
      to: {
        path: '^(?:lib|functions|infra)/',
        pathNot:
          '^lib/(?:incidents/incident|signals/signal|signals/signal-details|contract/time-words|contract/zoned-time)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'console-word-lists-stay-pure',
      comment:
        'The server modules whose lists the console bundles import only types (incident.ts also the statuses it ' +
        're-exports), so no server code reaches it.',
      severity: 'error',
      from: { path: '^lib/(?:incidents/incident|tickets/ticket-statuses|signals/signal|signals/signal-details)\\.ts$' },
      to: { pathNot: '^lib/tickets/ticket-statuses\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'console-time-words-stay-pure',
      comment: 'The times in words the console bundles: time-words uses zoned-time, and both use nothing else.',
      severity: 'error',
      from: { path: '^lib/contract/(?:time-words|zoned-time)\\.ts$' },
      to: { path: '^(?!lib/contract/zoned-time\\.ts$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-knows-no-console',
      severity: 'error',
      from: { path: '^(?:lib|functions|infra)/' },
      to: { path: '^console/' },
    },
    {
      name: 'no-module-cycles',
      comment: 'A cycle makes load order matter and hides which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Capabilities depend on each other one way only.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    combinedDependencies: true,
  },
};
