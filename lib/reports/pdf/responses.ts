import type { IncidentReport, ReportPlaybookRun } from '../incident-report.ts';
import type { Content } from './content.ts';
import { printable } from './fonts.ts';
import { COLORS, NO_VALUE, type TimeFormat } from './format.ts';
import { fitsEasily } from './markdown.ts';
import { keptWithNext, section, stripedTable, tableHeader } from './sections.ts';

/** The response to the incident beside its timeline: the playbooks run on it, and who was notified. */

const STEP_STATUS: Record<string, string> = {
  COMPLETED: 'Done',
  SKIPPED: 'Skipped',
  IN_PROGRESS: 'Current',
  PENDING: 'Not done',
};

/** A run of up to this many steps, with notes that fit easily, is kept on one page. */
const MAX_UNBROKEN_STEPS = 10;

const RUN_STATUS: Record<string, string> = {
  COMPLETED: 'completed',
  IN_PROGRESS: 'in progress',
  CANCELLED: 'cancelled',
};

const stepRows = (run: ReportPlaybookRun, time: TimeFormat): Content[][] =>
  run.steps.map((step, index) => {
    const done = step.finishedAt ? `${time(step.finishedAt)}\n${step.finishedBy ?? ''}` : NO_VALUE;
    const said = step.note ?? (step.reason ? `Skipped: ${step.reason}` : '');
    return [
      { text: String(index + 1), color: COLORS.muted },
      { text: printable(`${step.title}${step.optional ? ' (optional)' : ''}`) },
      { text: STEP_STATUS[step.status] ?? step.status },
      { text: printable(done), color: COLORS.muted },
      { text: printable(said) || NO_VALUE },
    ];
  });

const runBlock = (run: ReportPlaybookRun, time: TimeFormat): Content => {
  // A run of a usual playbook stays on one page, with its title; a long one may break rather than overflow.
  const whole =
    run.steps.length <= MAX_UNBROKEN_STEPS && fitsEasily(run.steps.map((step) => step.note ?? step.reason ?? ''));
  return {
    stack: [
      {
        text: [
          { text: printable(`${run.title} (version ${run.version})`), bold: true },
          {
            text: `   started ${time(run.startedAt)} by ${printable(run.startedBy)}, ${RUN_STATUS[run.status] ?? run.status}`,
            color: COLORS.muted,
            fontSize: 8.5,
          },
        ],
        ...keptWithNext(2, whole),
        margin: [0, 0, 0, 4],
      },
      stripedTable(
        [14, '*', 44, 120, '*'],
        tableHeader(['#', 'Step', 'Status', 'When, by whom', 'Note']),
        stepRows(run, time),
      ),
      ...run.actions.map((action) => ({
        text: printable(`Also done: ${action.description} (${time(action.recordedAt)}, ${action.recordedBy})`),
        fontSize: 8.5,
        margin: [0, 3, 0, 0],
      })),
    ],
    unbreakable: whole,
    margin: [0, 0, 0, 10],
  };
};

/** Each playbook run with every step's outcome and note; no section when none ran. */
export const playbookRunsSection = (report: IncidentReport, time: TimeFormat): Content[] =>
  report.playbookRuns.length === 0
    ? []
    : [
        section(
          'Playbook runs',
          report.playbookRuns.map((run) => runBlock(run, time)),
        ),
      ];

const EVENTS: Record<string, string> = {
  OPENED: 'Incident opened',
  ACKNOWLEDGED: 'Acknowledged',
  PRIORITY_RAISED: 'Priority raised',
  RESOLVED: 'Incident resolved',
  ESCALATION: 'Escalated: not acknowledged in time',
  ESCALATE_NOW: 'Escalated on request',
  RESPONSE_BREACHED: 'Response target missed',
  RESOLVE_BREACHED: 'Resolve target missed',
};

const CHANNELS: Record<string, string> = { email: 'E-mail', chat: 'Chat', sms: 'Text message' };

const OUTCOMES: Record<string, string> = {
  SENT: 'Sent',
  FAILED: 'Failed',
  MUTED: 'Muted (silent hours)',
  UNCONFIRMED: 'Not sent (address not confirmed)',
};

/** Who was told of what, on which channel, and whether it went out; no section when nobody was. */
export const notificationsSection = (report: IncidentReport, time: TimeFormat): Content[] =>
  report.notifications.length === 0
    ? []
    : [
        section(
          'Notifications sent',
          stripedTable(
            [84, 110, 60, '*', 70],
            tableHeader([`Time (${report.timezone})`, 'Event', 'Channel', 'Recipient', 'Outcome']),
            report.notifications.map((notification) => [
              { text: time(notification.at), color: COLORS.muted, noWrap: true },
              { text: EVENTS[notification.event] ?? notification.event },
              { text: CHANNELS[notification.channel] ?? notification.channel },
              { text: printable(notification.recipient) },
              { text: OUTCOMES[notification.status] ?? notification.status },
            ]),
          ),
        ),
      ];
