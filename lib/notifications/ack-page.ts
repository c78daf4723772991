import { escapeHtml } from '#lib/escaping/html.ts';
import type { Incident } from '#lib/incidents/incident.ts';

const page = (title: string, body: string): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}',
    'button{font-size:1.1rem;padding:.6rem 1.4rem;cursor:pointer}</style>',
    `</head><body>${body}</body></html>`,
  ].join('\n');

const incidentLine = (incident: Incident): string =>
  `<p><strong>[${escapeHtml(incident.priority)}] ${escapeHtml(incident.id)}</strong>: ${escapeHtml(incident.summary)}</p>`;

/** Who acknowledged and when, for an incident past OPEN. */
const acknowledgedLine = (incident: Incident): string =>
  incident.acknowledgedAt
    ? `<p>Acknowledged by ${escapeHtml(incident.acknowledgedBy ?? 'someone')} at ${escapeHtml(incident.acknowledgedAt)}` +
      `${incident.acknowledgedVia ? ` (${escapeHtml(incident.acknowledgedVia)} link)` : ''}. Status: ${escapeHtml(incident.status)}.</p>`
    : `<p>Status: ${escapeHtml(incident.status)}.</p>`;

/**
 * What opening the link shows: the incident and a button that acknowledges it by POST to the same address.
 * Opening it changes nothing, since mail scanners and link previews open links on their own.
 */
export const confirmationPage = (incident: Incident, by: string): string =>
  incident.status === 'OPEN'
    ? page(
        `Acknowledge ${incident.id}`,
        `<h1>Acknowledge ${escapeHtml(incident.id)}?</h1>${incidentLine(incident)}` +
          `<form method="post"><button type="submit">Acknowledge as ${escapeHtml(by)}</button></form>`,
      )
    : page(
        `${incident.id} is acknowledged`,
        `<h1>Already acknowledged</h1>${incidentLine(incident)}${acknowledgedLine(incident)}`,
      );

/** The answer to the POST: acknowledged by this link, or by someone before it. */
export const acknowledgedPage = (incident: Incident, acknowledgedNow: boolean): string =>
  page(
    `${incident.id} acknowledged`,
    `<h1>${acknowledgedNow ? 'Acknowledged' : 'Already acknowledged'}</h1>${incidentLine(incident)}${acknowledgedLine(incident)}` +
      (acknowledgedNow ? '<p>Escalations of this incident stop.</p>' : ''),
  );
