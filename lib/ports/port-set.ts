import { systemClock } from './clock.ts';
import type { Env } from './env.ts';
import { createIds } from './ids.ts';
import type { FunctionDeclaration } from './need.ts';
import type { PortName, Ports } from './ports.ts';

/** Ports that need no binding and no client. */
const ALWAYS: readonly PortName[] = ['clock', 'ids'];

const undeclared = (owner: string, port: PortName): Error =>
  new Error(`the ${owner} function does not declare the ${port} port: add the need to its declaration`);

const declaredPorts = ({ needs }: FunctionDeclaration): Set<PortName> =>
  new Set([...ALWAYS, ...needs.flatMap((need) => Object.keys(need.build) as PortName[])]);

/** Whether the function declares the port, and so may use it. */
export const declaresPort = (declaration: FunctionDeclaration, port: PortName): boolean =>
  declaredPorts(declaration).has(port);

/**
 * The ports of a function in Lambda, each client built from the environment on first use, so a function
 * pays at cold start only for what a request touches, and its bundle holds only the clients its needs
 * import. A port it did not declare throws: it has no grant and no environment for it.
 */
const buildPorts = (declaration: FunctionDeclaration, env: Env): Ports => {
  const built = new Map<PortName, unknown>();
  const clock = systemClock;
  const ports = {} as Ports;
  for (const port of Object.keys(PORT_NAMES) as PortName[]) {
    Object.defineProperty(ports, port, {
      enumerable: true,
      get() {
        if (!built.has(port)) built.set(port, construct(port));
        return built.get(port);
      },
    });
  }
  const construct = (port: PortName): unknown => {
    if (port === 'clock') return clock;
    if (port === 'ids') return createIds(clock);
    const build = declaration.needs.find((need) => need.build[port])?.build[port];
    if (!build) throw undeclared(declaration.name, port);
    return build(env);
  };
  return ports;
};

/**
 * Wraps a port as one function sees it. Tests observe each function's calls with it, to check them
 * against the IAM policy the stack gives that function.
 */
export type PortObserver = <P extends PortName>(declaration: FunctionDeclaration, port: P, value: Ports[P]) => Ports[P];

export interface InstallOptions {
  observe?: PortObserver;
}

/** Locally every port exists in one process; a function still sees only those it declares, as in AWS. */
const restrictPorts = (declaration: FunctionDeclaration, all: Ports, { observe }: InstallOptions): Ports => {
  const declared = declaredPorts(declaration);
  const ports = {} as Ports;
  for (const port of Object.keys(PORT_NAMES) as PortName[]) {
    Object.defineProperty(ports, port, {
      enumerable: true,
      get() {
        if (!declared.has(port)) throw undeclared(declaration.name, port);
        return observe ? observe(declaration, port, all[port]) : all[port];
      },
    });
  }
  return ports;
};

/** Every port name once, typed so a new port in `Ports` must be listed. */
const PORT_NAMES: Record<PortName, true> = {
  table: true,
  queue: true,
  workflow: true,
  mail: true,
  mailDelivery: true,
  objects: true,
  signingKeys: true,
  pushKeys: true,
  usagePlan: true,
  unkeyedUsageKey: true,
  rateLimits: true,
  identityProvider: true,
  oauthProviders: true,
  integrations: true,
  credentialKeys: true,
  sms: true,
  network: true,
  allowedOrigins: true,
  metrics: true,
  reasoner: true,
  clock: true,
  ids: true,
};

interface Installed {
  ports: Ports;
  options: InstallOptions;
  views: WeakMap<FunctionDeclaration, Ports>;
}

let installed: Installed | undefined;
const lambdaPorts = new WeakMap<FunctionDeclaration, Ports>();

/** The local server installs its ports (local adapters) before the first request; tests swap them. */
export const installPorts = (ports: Ports | undefined, options: InstallOptions = {}): void => {
  installed = ports && { ports, options, views: new WeakMap() };
};

/** The ports a declared function may use: the installed local ones, or in Lambda the AWS ones. */
export const portsOf = (declaration: FunctionDeclaration): Ports => {
  if (installed) {
    const { ports, options, views } = installed;
    const view = views.get(declaration) ?? restrictPorts(declaration, ports, options);
    views.set(declaration, view);
    return view;
  }
  const ports = lambdaPorts.get(declaration) ?? buildPorts(declaration, process.env);
  lambdaPorts.set(declaration, ports);
  return ports;
};
