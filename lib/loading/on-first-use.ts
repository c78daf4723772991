/**
 * A module (an adapter with its SDK client, a route's service) loaded on its first call. It is reached
 * through `import()`, which the bundler turns into a chunk of its own: a cold start loads no client or
 * service a request may never use, and a table-only function's bundle has no client. Later calls reuse
 * the first load instead of resolving the module again. A failed load is tried again next call.
 */
export const onFirstUse = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
};
