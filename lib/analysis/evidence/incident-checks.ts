import type { Scope } from '#lib/identity/scope.ts';
import { commentRepository } from '#lib/incidents/comment-repository.ts';
import { type Incident, isDone } from '#lib/incidents/incident.ts';
import type { EvidenceItem, IncidentContext, ServiceContext } from '#lib/ports/reasoner/evidence.ts';
import { instantsInWords } from '#lib/contract/time-words.ts';
import { sameService } from './service-names.ts';
import { tfIdfSimilarities } from './text-similarity.ts';

/** An open upstream incident counts when it began at most this long before this one (or just after). */
const UPSTREAM_INCIDENT_HOURS = 24;
/** Below this cosine similarity an earlier incident is not "similar". */
const SIMILARITY_THRESHOLD = 0.25;
/** Candidates whose comments are read for the second, fuller comparison; the best of them are kept. */
const RESCORED = 5;
const KEPT = 3;

const round = (value: number): number => Math.round(value * 100) / 100;
const minutesBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

/** Open incidents of the services this one depends on, started around the time it did. */
export const upstreamIncidentsCheck = (
  recent: readonly Incident[],
  incident: IncidentContext,
  service: ServiceContext | null,
  timeZone: string,
): EvidenceItem[] => {
  if (!service || service.upstreams.length === 0) return [];
  const start = Date.parse(incident.startedAt);
  return recent
    .filter((other) => other.id !== incident.id && !isDone(other.status))
    .filter((other) => {
      const createdAt = Date.parse(other.createdAt);
      return createdAt >= start - UPSTREAM_INCIDENT_HOURS * 3_600_000 && createdAt <= start + 15 * 60_000;
    })
    .flatMap((other): EvidenceItem[] => {
      const upstream = service.upstreams.find((name) => sameService(other.serviceArea, name));
      if (!upstream) return [];
      return [
        {
          id: `incident:${other.id}`,
          kind: 'UPSTREAM_INCIDENT',
          check: 'upstream-services',
          service: upstream,
          at: other.createdAt,
          summary: `Open ${other.priority} incident ${other.id} on ${upstream}: ${instantsInWords(other.summary, timeZone)}`,
          strength: other.priority === 'HIGH' || other.priority === 'CRITICAL' ? 0.7 : 0.5,
          details: { incidentId: other.id, status: other.status, priority: other.priority, summary: other.summary },
        },
      ];
    });
};

const incidentText = (incident: Incident | IncidentContext, comments: string[] = []): string =>
  [
    incident.summary,
    incident.description,
    'techDescription' in incident ? incident.techDescription : undefined,
    incident.impactSummary,
    ...comments,
  ]
    .filter(Boolean)
    .join(' ');

/**
 * Earlier incidents most like this one by TF-IDF cosine over summary, descriptions and impact, then again
 * with their comments for the best few, and what resolved them: the last comment of a resolved one.
 */
export const similarIncidentsCheck = async (
  { ports: { table }, workspaceId }: Scope,
  recent: readonly Incident[],
  incident: IncidentContext,
  timeZone: string,
): Promise<EvidenceItem[]> => {
  const others = recent.filter((other) => other.id !== incident.id && other.createdAt <= incident.createdAt);
  if (others.length === 0) return [];
  const first = tfIdfSimilarities(
    incidentText(incident),
    others.map((other) => incidentText(other)),
  );
  const candidates = others
    .map((other, index) => ({ other, score: first[index] ?? 0 }))
    .filter(({ score }) => score >= SIMILARITY_THRESHOLD / 2)
    .sort((a, b) => b.score - a.score)
    .slice(0, RESCORED);
  if (candidates.length === 0) return [];
  const comments = commentRepository(table, workspaceId);
  const [own, ...theirs] = await Promise.all(
    [incident.id, ...candidates.map(({ other }) => other.id)].map(async (id) =>
      (await comments.listComments(id)).map((comment) => comment.content),
    ),
  );
  const second = tfIdfSimilarities(
    incidentText(incident, own),
    candidates.map(({ other }, index) => incidentText(other, theirs[index])),
  );
  return candidates
    .map(({ other }, index) => ({ other, score: second[index] ?? 0, notes: theirs[index] ?? [] }))
    .filter(({ score }) => score >= SIMILARITY_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, KEPT)
    .map(({ other, score, notes }): EvidenceItem => {
      // What its responders wrote when they resolved it (the resolution note, else their last comment), quoted
      // with its instants in words, as every text of the analysis tells times.
      const written = other.resolution ?? notes.at(-1);
      const resolution = other.resolvedAt && written ? instantsInWords(written, timeZone) : null;
      const summary = instantsInWords(other.summary, timeZone);
      const minutesToResolve = other.resolvedAt ? minutesBetween(other.createdAt, other.resolvedAt) : null;
      return {
        id: `incident:${other.id}`,
        kind: 'SIMILAR_INCIDENT',
        check: 'similar-incidents',
        service: other.serviceArea ?? null,
        at: other.createdAt,
        summary: `Similar incident ${other.id} (${Math.round(score * 100)}% alike, ${other.status.toLowerCase()}): "${summary}"${resolution ? `, resolved with the note "${resolution.slice(0, 200)}"` : ''}`,
        strength: round(score * 0.8),
        details: {
          incidentId: other.id,
          summary,
          similarity: round(score),
          status: other.status,
          resolution: resolution?.slice(0, 500) ?? null,
          minutesToResolve,
        },
      };
    });
};
