import type { IncidentReport } from '../incident-report.ts';
import type { ReportSignal } from '#lib/signals/signal-details.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, type TimeFormat } from './format.ts';
import { keptWithNext, section } from './sections.ts';

const MAX_UNBROKEN_LABELS = 30;

const labelTable = (labels: ReportSignal['labels']): Content[] =>
  labels.length === 0
    ? []
    : [
        {
          table: {
            widths: [110, '*'],
            body: labels.map(([name, value]) => [
              { text: printable(name), color: COLORS.muted },
              { text: printable(value) },
            ]),
          },
          fontSize: 8.5,
          layout: {
            hLineWidth: () => 0,
            vLineWidth: () => 0,
            paddingTop: () => 1,
            paddingBottom: () => 1,
            paddingLeft: () => 0,
          },
          margin: [0, 3, 0, 0],
        },
      ];

const alertBlock = (signal: ReportSignal, time: TimeFormat): Content => {
  // An alert with a usual label set stays on one page; a huge one may break rather than overflow.
  const whole = signal.labels.length <= MAX_UNBROKEN_LABELS;
  return {
    stack: [
      {
        text: [
          { text: printable(signal.name), bold: true },
          {
            text: `   ${printable(signal.source)} · ${signal.severity} · ${signal.status} · triggered ${time(signal.triggeredAt)}`,
            color: COLORS.muted,
            fontSize: 8.5,
          },
        ],
        ...keptWithNext(2, whole),
      },
      ...(signal.summary === undefined ? [] : [{ text: printable(signal.summary), margin: [0, 2, 0, 0] }]),
      ...(signal.runbookUrl === undefined
        ? []
        : [
            {
              text: [
                { text: 'Runbook: ', color: COLORS.muted },
                { text: printable(signal.runbookUrl), link: signal.runbookUrl, color: COLORS.accent },
              ],
              margin: [0, 2, 0, 0],
            },
          ]),
      ...labelTable(signal.labels),
    ],
    unbreakable: whole,
    margin: [0, 0, 0, 10],
  };
};

/** The alerts behind the incident, with their labels and runbooks; none for an incident opened by hand. */
export const alertsSection = (report: IncidentReport, time: TimeFormat): Content[] => {
  if (report.signals.length === 0) return [];
  const more =
    report.moreSignals > 0
      ? [{ text: `… and ${report.moreSignals} more signals, listed by the incident's signals route.`, style: 'none' }]
      : [];
  return [section('Alerts', [...report.signals.map((signal) => alertBlock(signal, time)), ...more])];
};
