import committedMap from '../route-stacks.json' with { type: 'json' };

/**
 * Which nested stack holds each subtree of the API's paths (`api/v1/incident-ticket`), as committed in
 * infra/route-stacks.json: one list of subtrees per stack, `Routes` first. A subtree never moves: API Gateway
 * refuses a second resource of the same path, and CloudFormation creates the new one before it deletes the old,
 * so an update that moved a subtree would fail. A subtree the file does not list yet goes to the last stack while
 * it fits, else to a new one; a test asks for it to be written into the file, so the next release keeps it there.
 */
export type RouteStackMap = readonly (readonly string[])[];

export const COMMITTED_ROUTE_STACKS: RouteStackMap = committedMap;

/** The path segments every route shares (`/api/v1`): their resources are in the first routes stack. */
export const SHARED_SEGMENTS = 2;

/**
 * The most resources and methods a stack is filled to with new subtrees: CloudFormation takes 500 a stack, and
 * this leaves each stack's subtrees room to grow in place, since they never move.
 */
const NEW_SUBTREE_BUDGET = 350;

/** Beyond this a stack fails the synth, before CloudFormation's 500 would fail the deploy. */
export const ROUTE_STACK_LIMIT = 450;

/** The subtree a path belongs to: its first segment after `/api/v1` (`api/v1/incident-ticket`). */
export const subtreeOf = (path: string): string =>
  path
    .split('/')
    .filter(Boolean)
    .slice(0, SHARED_SEGMENTS + 1)
    .join('/');

/** A subtree's weight in resources: a resource per path segment (two with a CORS preflight), a method per route. */
const weigh = (paths: readonly string[], preflights: boolean): Map<string, number> => {
  const resources = new Map<string, Set<string>>();
  const methods = new Map<string, number>();
  for (const path of paths) {
    const subtree = subtreeOf(path);
    const segments = path.split('/').filter(Boolean);
    const own = resources.get(subtree) ?? new Set<string>();
    for (let depth = SHARED_SEGMENTS + 1; depth <= segments.length; depth += 1) {
      own.add(segments.slice(0, depth).join('/'));
    }
    resources.set(subtree, own);
    methods.set(subtree, (methods.get(subtree) ?? 0) + 1);
  }
  return new Map(
    [...resources].map(([subtree, own]) => [subtree, own.size * (preflights ? 2 : 1) + (methods.get(subtree) ?? 0)]),
  );
};

/**
 * The subtrees of each routes stack: the committed ones where the map puts them (those the routes no longer have
 * dropped), then each new subtree, in route-table order, in the last stack or a new one.
 */
export const assignSubtrees = (paths: readonly string[], preflights: boolean, committed: RouteStackMap): string[][] => {
  const weights = weigh(paths, preflights);
  const stacks = committed.map((subtrees) => subtrees.filter((subtree) => weights.has(subtree)));
  const placed = new Set(committed.flat());
  const sizeOf = (subtrees: readonly string[]) =>
    subtrees.reduce((sum, subtree) => sum + (weights.get(subtree) ?? 0), 0);
  for (const [subtree, weight] of weights) {
    if (placed.has(subtree)) continue;
    const last = stacks.at(-1);
    if (last && sizeOf(last) + weight <= NEW_SUBTREE_BUDGET) last.push(subtree);
    else stacks.push([subtree]);
  }
  return stacks;
};

/** The subtrees of `assigned` the committed map does not list, with the stack each went to (`Routes2`). */
export const unmappedSubtrees = (assigned: readonly (readonly string[])[], committed: RouteStackMap): string[] => {
  const placed = new Set(committed.flat());
  return assigned.flatMap((subtrees, index) =>
    subtrees.filter((subtree) => !placed.has(subtree)).map((subtree) => `${subtree} -> ${routeStackId(index)}`),
  );
};

/** `Routes`, `Routes2`, ...: the ids the stacks have had since the first split, which must never change. */
export const routeStackId = (index: number): string => (index === 0 ? 'Routes' : `Routes${index + 1}`);
