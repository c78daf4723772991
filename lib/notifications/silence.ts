import type { Incident } from '#lib/incidents/incident.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { isTeamSilentAt } from '#lib/silent-hours/silent-hours-service.ts';

/**
 * The teams an incident concerns: the services of its `serviceArea` (correlation lists them comma-separated),
 * each taken as a team slug, as silent-hours rules name teams; none when it has no service area, which only
 * a rule for every team (`*`) silences.
 */
const teamsOf = (incident: Incident): string[] => {
  const teams = (incident.serviceArea ?? '')
    .split(',')
    .map((team) => team.trim())
    .filter((team) => team !== '');
  return teams.length > 0 ? teams : [''];
};

/** Why notifications of the incident are muted at the instant, or undefined when they are not. */
export const silencedBy = async (scope: Scope, incident: Incident, instant: Date): Promise<string | undefined> => {
  for (const team of teamsOf(incident)) {
    if (await isTeamSilentAt(scope, team, instant)) return `silent hours of ${team ? `team ${team}` : 'every team'}`;
  }
  return undefined;
};
