import type { Scope } from '#lib/identity/scope.ts';
import { memberName } from './member-name.ts';
import { workspaceRepository } from './workspace-repository.ts';

const API_KEY_ACTOR = 'api-key:';

/**
 * How what a person reads names the people of an incident: an actor (`acknowledgedBy`, `resolvedBy`, a link's
 * holder: an e-mail, `api-key:<name>` or `system`) as the workspace's member of that address is called (their
 * name, docs/decisions.md "People by name"), an API key by its name, anyone else by what was recorded, and
 * nobody recorded as `someone`.
 */
export type PeopleNames = (actor: string | undefined) => string;

export const peopleNames = async (scope: Scope): Promise<PeopleNames> => {
  const members = await workspaceRepository(scope.ports.table, scope.workspaceId).listMembers();
  const byEmail = new Map(members.map((member) => [member.email.toLowerCase(), memberName(member)]));
  return (actor) => {
    if (actor === undefined) return 'someone';
    if (actor.startsWith(API_KEY_ACTOR)) return `the API key ${actor.slice(API_KEY_ACTOR.length)}`;
    if (actor === 'system') return 'the service';
    return byEmail.get(actor.toLowerCase()) ?? actor;
  };
};
