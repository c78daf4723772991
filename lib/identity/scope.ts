import type { Ports } from '#lib/ports/ports.ts';
import { actorOf, type Caller } from './caller.ts';

/**
 * What every service receives first: who acts, and the ports the function may use. Routes that run
 * before a workspace exists (sign-up, login, business setup, accepting an invitation) get this one.
 */
export interface AccountScope {
  caller: Caller;
  /** How history and messages name the caller: an e-mail, `api-key:<name>` or `system`. */
  actor: string;
  ports: Ports;
}

/** An account scope inside one workspace, whose id every key the services build carries. */
export interface Scope extends AccountScope {
  workspaceId: string;
}

export const accountScope = (caller: Caller, ports: Ports): AccountScope => ({ caller, actor: actorOf(caller), ports });

/**
 * The scope of work no person asked for (a queue worker, a sweep, a workflow stage) before it knows its
 * workspace: a sweep over every workspace, a message that names the workspace it is about.
 */
export const systemAccountScope = (ports: Ports): AccountScope => accountScope({ kind: 'anonymous' }, ports);

/** The same, inside one workspace. */
export const systemScope = (workspaceId: string, ports: Ports): Scope => ({
  ...systemAccountScope(ports),
  workspaceId,
});
