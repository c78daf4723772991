import { clockInWords } from '#lib/contract/time-words.ts';
import { peoplePage } from '#lib/contract/people-page.ts';
import { escapeHtml } from '#lib/escaping/html.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import type { PeopleNames } from '#lib/workspaces/people-names.ts';
import { CHANNEL_WORDS, STATUS_WORDS } from './incident-words.ts';

/**
 * The pages of an acknowledge link (docs/escalation.md, "One-click acknowledge"), in the console's style, times
 * in words on the workspace's clock. The console is served by the same API at its root, so the incident's page
 * is reached from `/api/v1/ack/<token>` by a relative link, under any stage prefix or domain.
 */
const INCIDENT_PATH_FROM_LINK = '../../../incidents/';

export interface AckPageContext {
  incident: Incident;
  timeZone: string;
  /** People by name, not by e-mail address. */
  nameOf: PeopleNames;
}

const incidentLink = (incidentId: string, words = 'Open the incident in the console'): string =>
  `<a class="button secondary" href="${INCIDENT_PATH_FROM_LINK}${encodeURIComponent(incidentId)}">${escapeHtml(words)}</a>`;

const incidentCard = ({ incident, timeZone }: AckPageContext): string =>
  `<p><strong>${escapeHtml(incident.id)}</strong> · ${escapeHtml(incident.priority)} priority</p>` +
  `<p>${escapeHtml(incident.summary)}</p>` +
  (incident.serviceArea ? `<p class="muted">Service: ${escapeHtml(incident.serviceArea)}</p>` : '') +
  `<p class="muted">Opened ${escapeHtml(clockInWords(incident.createdAt, timeZone))}</p>`;

/** Who acknowledged and when, in a sentence, for an incident past OPEN. */
const acknowledgedSentence = ({ incident, timeZone, nameOf }: AckPageContext): string =>
  incident.acknowledgedAt
    ? `<p class="done">Acknowledged by ${escapeHtml(nameOf(incident.acknowledgedBy))} at ` +
      `${escapeHtml(clockInWords(incident.acknowledgedAt, timeZone))}` +
      `${incident.acknowledgedVia ? ` through the link in ${CHANNEL_WORDS[incident.acknowledgedVia]}` : ''}. ` +
      `The incident is ${STATUS_WORDS[incident.status]}.</p>`
    : `<p>The incident is ${STATUS_WORDS[incident.status]}.</p>`;

const card = (heading: string, body: string): string =>
  `<div class="card"><h1>${escapeHtml(heading)}</h1>${body}</div>`;

/**
 * What opening the link shows: the incident and a button that acknowledges it by POST to the same address.
 * Opening it changes nothing, since mail scanners and link previews open links on their own.
 */
export const confirmationPage = (context: AckPageContext, by: string): string => {
  const { incident } = context;
  return incident.status === 'OPEN'
    ? peoplePage(
        `Acknowledge ${escapeHtml(incident.id)}`,
        card(
          `Acknowledge ${incident.id}?`,
          `${incidentCard(context)}<form method="post"><button type="submit">Acknowledge as ${escapeHtml(context.nameOf(by))}</button></form>` +
            incidentLink(incident.id),
        ),
      )
    : peoplePage(
        `${escapeHtml(incident.id)} is acknowledged`,
        card(
          'Already acknowledged',
          `${incidentCard(context)}${acknowledgedSentence(context)}${incidentLink(incident.id)}`,
        ),
      );
};

/** The answer to the POST: acknowledged by this link, or by someone before it. */
export const acknowledgedPage = (context: AckPageContext, acknowledgedNow: boolean): string =>
  peoplePage(
    `${escapeHtml(context.incident.id)} acknowledged`,
    card(
      acknowledgedNow ? 'Acknowledged' : 'Already acknowledged',
      `${incidentCard(context)}${acknowledgedSentence(context)}` +
        (acknowledgedNow ? '<p>Escalations of this incident stop; the others paged are told.</p>' : '') +
        incidentLink(context.incident.id),
    ),
  );

/** The link was used before: when, by whom, and where the incident stands. */
export const usedPage = (context: AckPageContext, by: string, usedAt: string | undefined): string =>
  peoplePage(
    'This acknowledge link was used already',
    card(
      'This link was used already',
      `<p class="problem">It was used by ${escapeHtml(context.nameOf(by))}` +
        `${usedAt ? ` at ${escapeHtml(clockInWords(usedAt, context.timeZone))}` : ''}; a link works once.</p>` +
        `${incidentCard(context)}${acknowledgedSentence(context)}${incidentLink(context.incident.id)}`,
    ),
  );

export const expiredPage = (incidentId: string, expiresAt: string, timeZone: string): string =>
  peoplePage(
    'This acknowledge link has expired',
    card(
      'This link has expired',
      `<p class="problem">It worked until ${escapeHtml(clockInWords(expiresAt, timeZone))}.</p>` +
        `<p>Acknowledge ${escapeHtml(incidentId)} in the console.</p>${incidentLink(incidentId)}`,
    ),
  );

export const notAllowedPage = (context: AckPageContext, by: string): string =>
  peoplePage(
    'This acknowledge link no longer acknowledges',
    card(
      'This link no longer acknowledges',
      `<p class="problem">${escapeHtml(context.nameOf(by))} may not acknowledge incidents in this workspace now.</p>` +
        `${incidentCard(context)}${incidentLink(context.incident.id)}`,
    ),
  );

export const invalidPage = (): string =>
  peoplePage(
    'This acknowledge link is not valid',
    card(
      'This link is not valid',
      '<p class="problem">It may have been cut or altered on its way: this service did not make it.</p>' +
        '<p>Open the incident from the console, or from the page again.</p>' +
        `<a class="button secondary" href="../../../">Open the console</a>`,
    ),
  );

export const goneIncidentPage = (incidentId: string): string =>
  peoplePage(
    'Incident not found',
    card(
      'Incident not found',
      `<p class="problem">${escapeHtml(incidentId)} was deleted.</p><a class="button secondary" href="../../../incidents">See the incidents</a>`,
    ),
  );
