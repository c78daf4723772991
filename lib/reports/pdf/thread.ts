import type { CompletedAnalysis } from '#lib/incidents/incident-analysis-repository.ts';
import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NONE, NO_VALUE, type TimeFormat, formatConfidence } from './format.ts';
import { fitsEasily, markdownContent, plainInline } from './markdown.ts';
import { keptWithNext, labelled, section, textOrNone } from './sections.ts';
import { timeOf } from './timeline-entries.ts';

/** Comments, oldest first; no section without any. */
export const commentsSection = (comments: IncidentReport['comments'], time: TimeFormat): Content[] => {
  if (comments.length === 0) return [];
  const ordered = comments
    .map((comment, order) => ({ comment, order, time: timeOf(comment.createdAt) }))
    .sort((a, b) => a.time - b.time || a.order - b.order);
  return [
    section(
      'Comments',
      ordered.map(({ comment }, index): Content => {
        // A usual comment stays whole, its author with it; a long one may break rather than overflow.
        const whole = fitsEasily([comment.content]);
        return {
          stack: [
            {
              text: [
                { text: printable(comment.authorEmail) || NO_VALUE, bold: true },
                { text: `   ${time(comment.createdAt)}`, color: COLORS.muted, fontSize: 8.5 },
              ],
              ...keptWithNext(2, whole),
              margin: [0, 0, 0, 3],
            },
            markdownContent(comment.content),
            ...(index < ordered.length - 1
              ? [
                  {
                    canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5, lineColor: COLORS.rule }],
                    margin: [0, 2, 0, 8],
                  },
                ]
              : []),
          ],
          unbreakable: whole,
        };
      }),
    ),
  ];
};

/**
 * When the analysis was made, beside the incident's resolution: one made before it covers the evidence up
 * to then only, and says so ("as of"), so a reader does not take it for the last word on a resolved incident.
 */
const whenMade = ({ completedAt }: CompletedAnalysis, resolvedAt: string | undefined, time: TimeFormat): string => {
  const made = time(completedAt);
  if (resolvedAt === undefined) return `as of ${made}, while the incident was open`;
  if (timeOf(completedAt) < timeOf(resolvedAt)) return `as of ${made}, before the incident was resolved`;
  return `made ${made}, after the incident was resolved`;
};

/** The latest completed analysis, and when it was made; no section before one completes. */
export const analysisSection = (report: IncidentReport, time: TimeFormat): Content[] => {
  const { analysis } = report;
  if (analysis === undefined) return [];
  const list = (items: string[], ordered: boolean): Content => {
    const cleaned = items.filter((item) => item.trim() !== '').map((item) => printable(plainInline(item)));
    if (cleaned.length === 0) return { text: NONE, style: 'none' };
    const margin = [0, 0, 0, 2];
    return { ...(ordered ? { ol: cleaned } : { ul: cleaned }), margin, unbreakable: fitsEasily(cleaned) };
  };
  return [
    section('Latest analysis', [
      {
        text: [
          { text: 'Confidence ', color: COLORS.muted },
          { text: formatConfidence(analysis.confidence), bold: true },
          { text: `   ·   ${whenMade(analysis, report.incident.resolvedAt, time)}`, color: COLORS.muted },
        ],
        margin: [0, 0, 0, 8],
      },
      labelled('Hypothesis', textOrNone(analysis.hypothesis), [analysis.hypothesis]),
      labelled('Root cause', textOrNone(analysis.rootCause), [analysis.rootCause]),
      labelled('Impact', textOrNone(analysis.impactAssessment), [analysis.impactAssessment]),
      labelled('Contributing factors', list(analysis.contributingFactors, false), analysis.contributingFactors),
      labelled('Remediation options, in order', list(analysis.remediationOptions, true), analysis.remediationOptions),
    ]),
  ];
};
