import { countOf } from '#lib/contract/count-words.ts';
import type { Evidence, EvidenceItem } from '#lib/ports/reasoner/evidence.ts';
import type { SuspectKind } from '#lib/ports/reasoner/reasoner.ts';
import { CHANGE_WINDOW_MINUTES, SHORTLY_BEFORE_MINUTES } from '../evidence/recent-changes-check.ts';
import type { CauseChain } from './cause-chains.ts';
import { chainStory, changeRef, deployerOf, mechanismOf } from './chain-words.ts';
import { clockInWords, durationInWords, minutesBetween } from '#lib/contract/time-words.ts';

/** The chosen explanation as its texts need it. */
export interface Explained {
  chain: CauseChain;
  kind: Exclude<SuspectKind, 'UNKNOWN'>;
  service: string;
  lead: EvidenceItem;
  /** Alerts that followed the root: those of the chain's failures and of the services depending on them. */
  followers: number;
}

/**
 * The hypothesis (the chain in order), the root cause (the change: service, commit or deployment, when, by whom;
 * or the failure nothing explains) and the cause in plain words, every time in the workspace's zone.
 */
export const hypothesisTexts = (
  { chain, kind, service, lead, followers }: Explained,
  { incident }: Evidence,
  timeZone: string,
): { hypothesis: string; rootCause: string; plainCause: string } => {
  const symptom = incident.service ?? service;
  const story = chainStory(chain, timeZone);
  // The services the failure travelled through after the root's own: empty for a service that broke itself.
  const spread = mechanismOf(chain).filter((name) => name !== service);
  const lagMinutes = lead.at ? minutesBetween(lead.at, incident.startedAt) : null;
  if (kind === 'DEPLOY') {
    const lag = lagMinutes === null ? 'shortly' : durationInWords(lagMinutes);
    const released =
      lagMinutes === null || lagMinutes <= SHORTLY_BEFORE_MINUTES ? 'shortly' : `about ${durationInWords(lagMinutes)}`;
    const changeAt = lead.at ? ` at ${clockInWords(lead.at, timeZone)}` : '';
    return {
      hypothesis: `${lead.summary} went out ${lag} before the incident began: ${story}; ${countOf(followers, 'alert')} on ${service} and the services depending on it followed.`,
      rootCause: `The change deployed to ${service}${changeAt}${deployerOf(lead)}: ${lead.summary}, ${changeRef(lead, true)}.${spread.length > 0 ? ` It reached ${symptom} through the services that call it: ${[service, ...spread].join(' failed, then ')} failed.` : ''}`,
      plainCause: `A software update released to the ${service} service ${released} before the problem began is the most likely cause.${spread.length > 0 ? ` The failure then spread to ${spread.join(', then ')}, which rel${spread.length === 1 ? 'ies' : 'y'} on it.` : ''}`,
    };
  }
  if (kind === 'UPSTREAM') {
    const through = spread.filter((name) => name !== symptom);
    return {
      hypothesis: `${service}, which ${symptom} depends on${through.length > 0 ? ` through ${through.join(' and ')}` : ''}, was in trouble first (${lead.summary}); the failure spread to ${symptom}, whose own alerts came after: ${story}. No change to ${service} was found in the ${durationInWords(CHANGE_WINDOW_MINUTES)} before it began failing.`,
      rootCause: `A failure of ${service}, upstream of ${symptom}: ${lead.summary}; no change to ${service} was found before it, so what in it failed is not in the evidence.`,
      plainCause: `A problem in ${service}, a system that ${symptom} relies on, started first and caused the disruption.`,
    };
  }
  return {
    hypothesis: `A fault inside ${service} itself: its alerts began ${lead.at ? `at ${clockInWords(lead.at, timeZone)}` : 'first'}, and no recent change or upstream failure was found.`,
    rootCause: `A fault within ${service}; what in it failed is not in the evidence.`,
    plainCause: `Something went wrong inside the ${service} service itself; the exact fault is still being confirmed.`,
  };
};
