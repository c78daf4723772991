/**
 * The one place an AWS SDK client of the service is constructed (an architecture test holds every other
 * module to it), so whatever must see every command of every client is installed once, here. The
 * least-privilege proof installs a middleware that turns each command into the IAM requests it needs
 * (test/support/iam/); in Lambda nothing is installed and a client is exactly the SDK's.
 */

/** The part of an SDK client a hook may touch: its middleware stack. */
export interface HookableClient {
  middlewareStack: { add: (...args: never[]) => unknown };
}

export type AwsClientHook = (client: HookableClient) => void;

/**
 * The hooks live on the global object under a registered symbol: a built function bundle holds its own copy
 * of this module, and the process that imports the bundle must reach the same list.
 */
const HOOKS = Symbol.for('incident-service.aws-client-hooks');
const registry = globalThis as { [HOOKS]?: AwsClientHook[] };

/** Runs `hook` on every client constructed from now on, in every copy of this module in the process. */
export const onAwsClient = (hook: AwsClientHook): void => {
  registry[HOOKS] = [...(registry[HOOKS] ?? []), hook];
};

export const newAwsClient = <Client extends HookableClient, Config>(
  Constructor: new (config: Config) => Client,
  config: Config,
): Client => {
  const client = new Constructor(config);
  for (const hook of registry[HOOKS] ?? []) hook(client);
  return client;
};
