import { countOf } from '#lib/contract/count-words.ts';
import type { Scope } from '#lib/identity/scope.ts';
import type { EvidenceItem, IncidentContext, ServiceContext } from '#lib/ports/reasoner/evidence.ts';
import { patternRepository } from '../pattern-repository.ts';
import { sameService } from './service-names.ts';

/**
 * Learned patterns that concern this incident: those whose cause was one of its services (its own or an
 * upstream) or that affected its service, with how following their fix went.
 */
export const learnedPatternsCheck = async (
  { ports: { table }, workspaceId }: Scope,
  incident: IncidentContext,
  service: ServiceContext | null,
): Promise<EvidenceItem[]> => {
  const own = incident.service;
  if (!own) return [];
  const related = [own, ...(service?.upstreams ?? [])];
  const patterns = await patternRepository(table, workspaceId).listPatterns();
  return patterns
    .filter(
      (pattern) =>
        pattern.occurrences > 0 &&
        (related.some((name) => sameService(pattern.suspectService, name)) ||
          pattern.affectedServices.some((name) => sameService(name, own))),
    )
    .map((pattern): EvidenceItem => {
      const worked = pattern.outcomes.RESOLVED / pattern.occurrences;
      return {
        id: `pattern:${pattern.patternId}`,
        kind: 'PATTERN',
        check: 'learned-patterns',
        service: pattern.suspectService,
        at: pattern.lastSeen,
        summary: `Learned pattern "${pattern.description}": ${countOf(pattern.occurrences, 'occurrence')}, the fix worked ${countOf(pattern.outcomes.RESOLVED, 'time')}; fix: ${pattern.suggestedFix}`,
        strength: Math.round((0.3 + 0.4 * worked) * 100) / 100,
        details: {
          patternId: pattern.patternId,
          suspectKind: pattern.suspectKind,
          suggestedFix: pattern.suggestedFix,
          occurrences: pattern.occurrences,
          resolved: pattern.outcomes.RESOLVED,
          worsened: pattern.outcomes.WORSENED,
        },
      };
    });
};
