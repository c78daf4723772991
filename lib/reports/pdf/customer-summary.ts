import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { formatDuration, NO_VALUE, type TimeFormat } from './format.ts';
import { markdownContent } from './markdown.ts';
import { section } from './sections.ts';

/** How an incident that is not resolved yet stands, finishing "It was opened at … and …". */
const STANDING: Record<string, string> = {
  OPEN: 'is not yet acknowledged',
  ACKNOWLEDGED: 'has been acknowledged by the team',
  INVESTIGATION: 'is under investigation',
  MITIGATED: 'has been mitigated while the cause is worked on',
};

const isSet = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/** Free text ends a sentence with its own punctuation, or gets a full stop. */
const asSentence = (text: string): string => {
  const trimmed = text.trim();
  return /[.!?…)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/** "About 5%" reads on as "about 5%" inside a sentence; "EU storefronts" or "API" keep their capitals. */
const continuing = (text: string): string =>
  /^[A-Z][a-z]/.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;

/** "the Payments service in production (eu-west-1)", "production (eu-west-1)": from the fields that are set. */
const whereOf = ({ serviceArea, environment, region }: IncidentReport['incident']): string | undefined => {
  let where = isSet(serviceArea) ? `the ${serviceArea.trim()} service` : '';
  if (isSet(environment)) where = where === '' ? environment.trim() : `${where} in ${environment.trim()}`;
  if (isSet(region)) where = where === '' ? region.trim() : `${where} (${region.trim()})`;
  return where === '' ? undefined : where;
};

const whenOf = (incident: IncidentReport['incident'], time: TimeFormat): string => {
  const opened = `It was opened at ${time(incident.createdAt)}`;
  if (isSet(incident.resolvedAt)) {
    const lasted = formatDuration(incident.createdAt, incident.resolvedAt);
    const after = lasted === NO_VALUE ? '' : `, ${lasted} later`;
    return `${opened} and resolved at ${time(incident.resolvedAt)}${after}.`;
  }
  return `${opened} and ${STANDING[incident.status] ?? `is ${incident.status.toLowerCase()}`}.`;
};

/**
 * The incident as a customer would be told it, in sentences: where and when, the description written
 * for customers as it is, then the impact and its reach worked into prose rather than listed as fields.
 */
export const customerSection = (incident: IncidentReport['incident'], time: TimeFormat): Content => {
  const where = whereOf(incident);
  const opening = [where === undefined ? undefined : `The incident affected ${where}.`, whenOf(incident, time)];
  const reach = [
    isSet(incident.impactSummary) ? `The impact: ${continuing(asSentence(incident.impactSummary))}` : undefined,
    isSet(incident.blastRadius) ? `It reached ${continuing(asSentence(incident.blastRadius))}` : undefined,
  ];
  const paragraph = (sentences: (string | undefined)[]): Content[] => {
    const text = sentences.filter((sentence) => sentence !== undefined).join(' ');
    return text === '' ? [] : [{ text: printable(text), margin: [0, 0, 0, 6] }];
  };
  return section('What happened', [
    ...paragraph(opening),
    ...(isSet(incident.description) ? [markdownContent(incident.description)] : []),
    ...paragraph(reach),
  ]);
};
