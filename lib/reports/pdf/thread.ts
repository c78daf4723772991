import type { IncidentReport } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NONE, NO_VALUE, type TimeFormat, formatConfidence } from './format.ts';
import { fitsEasily, markdownContent, plainInline } from './markdown.ts';
import { labelled, section, textOrNone } from './sections.ts';
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
      ordered.map(
        ({ comment }, index): Content => ({
          stack: [
            {
              text: [
                { text: printable(comment.authorEmail) || NO_VALUE, bold: true },
                { text: `   ${time(comment.createdAt)}`, color: COLORS.muted, fontSize: 8.5 },
              ],
              headlineLevel: 2,
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
        }),
      ),
    ),
  ];
};

/** The latest completed analysis; no section before one completes. */
export const analysisSection = (analysis: IncidentReport['analysis'], time: TimeFormat): Content[] => {
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
          { text: `   ·   completed ${time(analysis.completedAt)}`, color: COLORS.muted },
        ],
        margin: [0, 0, 0, 8],
      },
      labelled('Hypothesis', textOrNone(analysis.hypothesis)),
      labelled('Root cause', textOrNone(analysis.rootCause)),
      labelled('Impact', textOrNone(analysis.impactAssessment)),
      labelled('Contributing factors', list(analysis.contributingFactors, false)),
      labelled('Remediation options, in order', list(analysis.remediationOptions, true)),
    ]),
  ];
};
