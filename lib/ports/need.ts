import type { Env } from './env.ts';
import type { Ports } from './ports.ts';
import type { QueueName } from './queue/queue.ts';

/** `limiterCounters`: only the rate limiter's `LIMIT#` windows, which every route group counts in. */
export type TableAccess = 'limiterCounters' | 'read' | 'readWrite';
export type ObjectAccess = 'read' | 'write' | 'readWrite';

/** What the stack gives a function for one need: an IAM grant and the environment that goes with it. */
export type Binding =
  | { kind: 'table'; access: TableAccess }
  | { kind: 'apiKeyUsage' }
  | { kind: 'queues'; queues: readonly QueueName[] }
  | { kind: 'workflow' }
  | { kind: 'mail' }
  | { kind: 'mailDelivery' }
  | { kind: 'signingKeys' }
  | { kind: 'pushKeys' }
  | { kind: 'usagePlan' }
  | { kind: 'unkeyedUsage' }
  | { kind: 'objects'; access: ObjectAccess }
  | { kind: 'rateLimits' }
  | { kind: 'cors' }
  | { kind: 'oauthProviders' }
  | { kind: 'integrationProviders' }
  | { kind: 'credentialKeys' }
  | { kind: 'sms' }
  | { kind: 'network' }
  | { kind: 'metrics' }
  | { kind: 'reasoner' };

/**
 * One thing a function needs from outside the domain: how the stack binds it, and how the Lambda builds
 * the ports it provides from that binding's environment. A function's needs are the one declaration
 * both sides read, so a port a function uses is a port it was granted.
 */
export interface PortNeed {
  binding: Binding;
  build: { [K in keyof Ports]?: (env: Env) => Ports[K] };
}

/** A Lambda of the service as declared: a route group or a worker, and what it needs. */
export interface FunctionDeclaration {
  /** Also the name of its `functions/` folder. */
  name: string;
  description: string;
  needs: readonly PortNeed[];
}
