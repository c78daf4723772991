import { ESCALATION_EVENTS } from '#lib/incidents/incident-notifications.ts';
import type { IncidentNotification } from '#lib/incidents/notification-message.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { type AccountScope, systemScope, type Scope } from '#lib/identity/scope.ts';
import { chatWebhookUrl, postToChatWebhook } from '#lib/integrations/chat-webhook.ts';
import { integrationRepository } from '#lib/integrations/integration-repository.ts';
import { log } from '#lib/log/logger.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { imsConfigRepository, type ImsConfig } from '#lib/workspaces/ims-config-repository.ts';
import { unconfirmedAddresses, WAITING_FOR_CONFIRMATION } from '#lib/workspaces/unconfirmed-addresses.ts';
import { ACK_LINK_LIFETIME_MS, signAckLink } from './ack-token.ts';
import { maskPhone, type Delivery } from './delivery.ts';
import { deliveryRepository } from './delivery-repository.ts';
import { chatMessage, mailMessage, notificationContent, smsText } from './notification-messages.ts';
import type { Pagee } from './escalation-contact.ts';
import { pagedPeople } from './paged-people.ts';
import { RecipientGoneError, type PageSend } from './page-send.ts';
import { pushSends } from './push-sends.ts';
import { pageFacts } from './page-facts.ts';
import { isResponseNews, isTheActor, pagedBefore, saidByEscalation } from './response-news.ts';
import { silencedBy } from './silence.ts';
import { peopleNames } from '#lib/workspaces/people-names.ts';

/**
 * The IMS settings decide openings, raised priorities and resolutions (an acknowledgement is news only for
 * those paged already, so it follows them); a workspace that never set them up gets
 * the spec's defaults (both on). Escalations are queued only with `autoEscalate` on, and breach alerts only
 * for incidents an SLA policy governs, so those settings decided them already.
 */
const wanted = ({ event }: IncidentNotification, config: ImsConfig | undefined): boolean => {
  if (event === 'RESOLVED') return config?.notifyOnResolve ?? true;
  if (event === 'OPENED' || event === 'PRIORITY_RAISED') return config?.notifyOnCreate ?? true;
  return true;
};

const isEscalation = ({ event }: IncidentNotification): boolean => ESCALATION_EVENTS.includes(event);

/**
 * Silent hours mute every notification of the teams they cover, but for escalations and breach alerts of HIGH
 * and CRITICAL incidents: those are the pages that exist because nobody answered the first one.
 */
const mutedBySilence = (notification: IncidentNotification): boolean =>
  !isEscalation(notification) || notification.priority === 'LOW' || notification.priority === 'MEDIUM';

/**
 * A war room for the incidents that need people together: opened HIGH or CRITICAL, or raised to it. Escalations
 * and breach alerts do not open another one: the first pages already carried it.
 */
const wantsWarRoom = ({ event, priority }: IncidentNotification): boolean =>
  (event === 'OPENED' || event === 'PRIORITY_RAISED') && (priority === 'HIGH' || priority === 'CRITICAL');

/**
 * Whom the event reaches: the workspace's chat webhook, the e-mail of the people paged (the members on call,
 * and for an escalation or a breach the policy's escalation contact) and the IMS alert address (each address
 * once; an outside address only once it confirmed), the SMS number of each paged member who connected one, and each
 * device a paged member turned push on for.
 */
const sendsFor = async (scope: Scope, config: ImsConfig | undefined, people: readonly Pagee[]) => {
  const { ports, workspaceId } = scope;
  const sends: PageSend[] = [];
  const chat = await chatWebhookUrl(ports, workspaceId);
  if (chat) {
    const channel = config?.slackChannel ?? chat.channel;
    sends.push({
      channel: 'chat',
      recipient: channel ?? 'chat webhook',
      ackAs: { by: channel ?? 'chat webhook' },
      send: async (content) => {
        const refused = await postToChatWebhook(ports.network, chat.url, chatMessage(content, channel));
        if (refused) throw new Error(refused);
      },
    });
  }
  const byEmail = new Map<string, string | undefined>();
  for (const { email, userId } of [...people, ...(config?.alertEmail ? [{ email: config.alertEmail }] : [])]) {
    const address = email.toLowerCase();
    if (!byEmail.has(address) || userId) byEmail.set(address, userId);
  }
  const unconfirmed = await unconfirmedAddresses(
    scope,
    [...byEmail].flatMap(([email, userId]) => (userId ? [] : [email])),
  );
  for (const [email, userId] of byEmail) {
    sends.push({
      channel: 'email',
      recipient: email,
      ackAs: { by: email, userId },
      unconfirmed: unconfirmed.has(email),
      // Not `sendOrAskAgain`: nobody asks a page again, so an outbox that refuses it fails the delivery.
      send: (content) => ports.mail.send(mailMessage(content, email)),
    });
  }
  const members = [...byEmail].flatMap(([email, userId]) => (userId ? [{ email, userId }] : []));
  const integrations = integrationRepository(ports.table, workspaceId);
  const phones = await Promise.all(members.map(({ userId }) => integrations.findIntegration(userId, 'sms')));
  for (const [index, phone] of phones.entries()) {
    if (phone?.status !== 'ACTIVE' || !phone.phoneNumber) continue;
    const to = phone.phoneNumber;
    const member = members[index] as { email: string; userId: string };
    sends.push({
      channel: 'sms',
      recipient: maskPhone(to),
      ackAs: { by: member.email, userId: member.userId },
      send: (content) => ports.sms.send({ to, text: smsText(content) }),
    });
  }
  sends.push(...(await pushSends(scope, members)));
  return sends;
};

/** The video tool's client (its OAuth refresh and calls) loads with the first war room asked for. */
const meetings = onFirstUse(() => import('#lib/integrations/meetings.ts'));

const warRoom = async (scope: Scope, incident: Incident, earlier: readonly Delivery[]): Promise<string | undefined> => {
  const known = earlier.find((delivery) => delivery.meetingUrl)?.meetingUrl;
  if (known) return known;
  try {
    return await (await meetings()).createWarRoomLink(scope, `${incident.id}: ${incident.summary}`);
  } catch (error) {
    log.warn('no war-room link: the video tool failed; the notification goes without one', { error });
    return undefined;
  }
};

/**
 * The acknowledge link of one delivery: only while the incident is OPEN, since a page about an acknowledged
 * or resolved incident has nothing left to acknowledge.
 */
const ackUrlFor = async (
  { ports }: Scope,
  notification: IncidentNotification,
  incident: Incident,
  send: PageSend,
): Promise<string | undefined> => {
  if (incident.status !== 'OPEN') return undefined;
  const token = await signAckLink(ports.signingKeys, {
    linkId: ports.ids.uuid(),
    workspaceId: notification.workspaceId,
    incidentId: incident.id,
    by: send.ackAs.by,
    ...(send.ackAs.userId && { userId: send.ackAs.userId }),
    channel: send.channel,
    recipient: send.recipient,
    event: notification.event,
    eventAt: notification.at,
    expiresAt: new Date(ports.clock.now().getTime() + ACK_LINK_LIFETIME_MS).toISOString(),
  });
  return `${ports.integrations.apiUrl}/api/v1/ack/${token}`;
};

/**
 * Sends one incident event to everyone it concerns, recording every attempt. Deliveries already SENT or
 * MUTED are not repeated, so a redelivered or retried message reaches nobody twice; during silent hours
 * each delivery is recorded MUTED and nothing is sent (but for escalations of HIGH and CRITICAL incidents). An
 * escalation that finds the incident acknowledged since is dropped. A failed delivery fails the message, and SQS
 * tries it again (only the failed ones are sent again) until the queue sets it aside.
 */
export const deliverNotification = async (
  { ports }: AccountScope,
  notification: IncidentNotification,
): Promise<void> => {
  const { workspaceId, incidentId, event, at: eventAt } = notification;
  const scope = systemScope(workspaceId, ports);
  const incident = await incidentRepository(ports.table, workspaceId).getIncident(incidentId);
  if (!incident) {
    log.info('notification dropped: the incident was deleted', { incidentId, event });
    return;
  }
  if (event === 'ESCALATION' && incident.status !== 'OPEN') {
    log.info('escalation dropped: the incident was acknowledged since', {
      incidentId,
      escalation: notification.escalation,
    });
    return;
  }
  const config = await imsConfigRepository(ports.table, workspaceId).getImsConfig();
  const paged = await pagedPeople(scope, notification, incident);
  // A policy's opening page is its level 1, a page, not a notice `notifyOnCreate` may turn off.
  if (!paged.policy && !wanted(notification, config)) return;
  if (await saidByEscalation(scope, notification, incident, config?.autoEscalate)) {
    log.info('breach alert left to the escalation of the same deadline', { incidentId });
    return;
  }
  const news = isResponseNews(notification) ? await pagedBefore(scope, incidentId) : [];
  const people = [...(event === 'ACKNOWLEDGED' ? [] : paged.people), ...news];
  const sends = (await sendsFor(scope, config, people)).filter(
    ({ ackAs }) => !isTheActor(incident, notification, ackAs.by),
  );
  const deliveries = deliveryRepository(ports.table, workspaceId);
  const earlier = await deliveries.queryEventDeliveries({ incidentId, event, eventAt });
  const settled = new Set(
    earlier.filter(({ status }) => status !== 'FAILED').map(({ channel, recipient }) => `${channel}#${recipient}`),
  );
  const pending = sends.filter(({ channel, recipient }) => !settled.has(`${channel}#${recipient}`));
  if (pending.length === 0) return;
  const silence = mutedBySilence(notification) ? await silencedBy(scope, incident, new Date(eventAt)) : undefined;
  const meetingUrl = !silence && wantsWarRoom(notification) ? await warRoom(scope, incident, earlier) : undefined;
  const content = notificationContent(notification, incident, {
    appUrl: ports.mail.appUrl,
    onCall: paged.onCall,
    meetingUrl,
    facts: await pageFacts(scope, incident),
    now: ports.clock.now(),
    nameOf: await peopleNames(scope),
  });
  let failed = 0;
  for (const pendingSend of pending) {
    const { channel, recipient, send } = pendingSend;
    const target = { incidentId, event, eventAt, channel, recipient };
    const at = () => ports.clock.now().toISOString();
    if (pendingSend.unconfirmed) {
      await deliveries.recordAttempt(target, { at: at(), outcome: 'UNCONFIRMED', detail: WAITING_FOR_CONFIRMATION });
      continue;
    }
    if (silence) {
      await deliveries.recordAttempt(target, { at: at(), outcome: 'MUTED', detail: silence });
      continue;
    }
    // How long after its event this page went out, or failed again: the pager's own health (docs/heartbeats.md).
    ports.metrics.duration('NotificationLag', ports.clock.now().getTime() - Date.parse(eventAt));
    try {
      await send({ ...content, ackUrl: await ackUrlFor(scope, notification, incident, pendingSend) });
      await deliveries.recordAttempt(target, { at: at(), outcome: 'SENT' }, meetingUrl);
    } catch (error) {
      if (!(error instanceof RecipientGoneError)) failed += 1;
      await deliveries.recordAttempt(target, {
        at: at(),
        outcome: 'FAILED',
        detail: (error as Error).message.slice(0, 300),
      });
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${pending.length} notifications of ${incidentId} ${event} failed`);
};
