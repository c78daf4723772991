import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { Claim, Hypothesis } from '#lib/ports/reasoner/reasoner.ts';
import { durationInWords, minutesBetween } from '#lib/contract/time-words.ts';

const claim = (text: string, items: (EvidenceItem | undefined)[] = []): Claim => ({
  text,
  evidenceIds: items.flatMap((item) => (item ? [item.id] : [])),
});

const earliest = (items: EvidenceItem[]) => [...items].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''))[0];

/** Five claims from the symptom down to the cause, each grounded in evidence or saying what is unknown. */
export const fiveWhysOf = (evidence: Evidence, hypothesis: Hypothesis): Claim[] => {
  const { incident, items } = evidence;
  const { suspect } = hypothesis;
  const service = incident.service ?? 'the service';
  const lead = items.find((item) => item.id === suspect.evidenceId);
  const firstOwn = earliest(items.filter((item) => item.kind === 'SIGNAL'));
  const dependents = items.filter((item) => item.kind === 'DEPENDENT_SIGNAL');
  const similar = items.find((item) => item.kind === 'SIMILAR_INCIDENT');
  const why1 = firstOwn
    ? claim(`"${incident.summary}" happened because ${service} began failing: ${firstOwn.summary}.`, [firstOwn])
    : claim(`"${incident.summary}": unknown when or where it began; no signal of ${service} is in the evidence.`);
  const spread = dependents.length
    ? claim(
        `It spread because ${[...new Set(dependents.map((item) => item.service))].join(', ')} depend on ${service} and alerted after it.`,
        dependents,
      )
    : claim(`Unknown whether it spread: no service depending on ${service} alerted.`);
  if (suspect.kind === 'DEPLOY' && lead) {
    const run = items.find(
      (item) => item.kind === 'PIPELINE_RUN' && item.details.repository === lead.details.repository,
    );
    return [
      why1,
      claim(
        // A change to a service it depends on broke it through that service (docs/analysis.md, "Cause chains").
        `${service} failed because ${suspect.service && suspect.service !== service ? `${suspect.service}, which it depends on, failed first after ` : 'of '}a change released ${lead.at ? durationInWords(minutesBetween(lead.at, incident.startedAt)) : 'shortly'} before it began: ${lead.summary}.`,
        [lead],
      ),
      claim(
        `Unknown what in ${String(lead.details.commitSha ?? lead.id).slice(0, 7)} broke ${service}: the evidence names the change, not its content; compare it with the release before.`,
        [lead],
      ),
      run
        ? claim(`It was not caught before release although ${run.summary} ran: its checks do not cover this failure.`, [
            run,
          ])
        : claim(
            `Unknown why it was not caught before release: no pipeline run of ${lead.details.repository} is in the evidence.`,
          ),
      spread,
    ];
  }
  if (suspect.kind === 'UPSTREAM' && lead) {
    const theirs = items.find((item) => item.kind === 'UPSTREAM_INCIDENT' && item.service === suspect.service);
    return [
      why1,
      claim(
        `${service} failed because ${suspect.service}, which it depends on, was in trouble first: ${lead.summary}.`,
        [lead],
      ),
      theirs
        ? claim(`${suspect.service} was failing: ${theirs.summary}.`, [theirs])
        : claim(`Unknown why ${suspect.service} failed: no evidence from inside it says why.`),
      claim(
        `The failure reached ${service} because it depends on ${suspect.service} and nothing isolated it: its own alerts followed.`,
        [lead, firstOwn],
      ),
      similar
        ? claim(`It has happened before: ${similar.summary}.`, [similar])
        : claim(`Unknown why ${suspect.service} was fragile: no earlier incident or pattern explains it.`),
    ];
  }
  return [
    why1,
    similar
      ? claim(`An earlier incident looked the same: ${similar.summary}.`, [similar])
      : claim(
          `Unknown why ${service} failed: no recent change, upstream failure or earlier incident is in the evidence.`,
        ),
    claim(`Unknown: the evidence holds nothing from inside ${service} (logs, resource use) to go deeper.`),
    claim('Unknown: without the cause, what let it happen cannot be told.'),
    spread,
  ];
};
