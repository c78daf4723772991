import { HttpError } from '#lib/contract/errors.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { acknowledgeOpenIncident } from '#lib/incidents/acknowledge-incident.ts';
import { escalateNow } from '#lib/incidents/escalate-now.ts';
import { findIncident } from '#lib/incidents/get-incident.ts';
import { resolveIncident } from '#lib/incidents/resolve-incident.ts';
import type { ChatPress } from './chat-interaction-payload.ts';

export type PressOutcome = 'ACKNOWLEDGED' | 'RESOLVED' | 'ESCALATED' | 'NOT_DONE';

/** What a press did, in words: "Acknowledged" (then "by <name> at <time>") or why nothing was done. */
export interface PressResult {
  outcome: PressOutcome;
  done: boolean;
  words: string;
}

/**
 * Acts as the member the scope names, through the same services as the API's buttons: a refusal of theirs (the
 * incident resolved already, no escalation level left, not found) is nothing done, said in its own words.
 */
export const actOnPress = async (scope: Scope, press: ChatPress): Promise<PressResult> => {
  try {
    const incident = await findIncident(scope, press.incidentId);
    switch (press.action) {
      case 'acknowledge': {
        const result = await acknowledgeOpenIncident(scope, { incident, note: 'with the button in the chat' });
        return result.acknowledged
          ? { outcome: 'ACKNOWLEDGED', done: true, words: 'Acknowledged' }
          : {
              outcome: 'NOT_DONE',
              done: false,
              words: `nothing to acknowledge: the incident is ${result.incident.status}.`,
            };
      }
      case 'resolve':
        await resolveIncident(scope, { id: incident.id });
        return { outcome: 'RESOLVED', done: true, words: 'Resolved' };
      case 'escalate':
        await escalateNow(scope, incident.id);
        return { outcome: 'ESCALATED', done: true, words: 'Escalated to the next level' };
    }
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) {
      return { outcome: 'NOT_DONE', done: false, words: `nothing was done: ${error.message}.` };
    }
    throw error;
  }
};
