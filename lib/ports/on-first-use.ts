/**
 * An adapter loaded on its first call. The need's builder reaches the adapter and its SDK client through
 * `import()`, which the bundler turns into a chunk of their own: a cold start loads no client a request
 * may never use, and a table-only function's bundle has none. A failed load is tried again next call.
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
