import type { IncidentNotification } from '#lib/incidents/incident-notifications.ts';
import { incidentRepository } from '#lib/incidents/incident-repository.ts';
import type { Incident } from '#lib/incidents/incident.ts';
import { type AccountScope, systemScope, type Scope } from '#lib/identity/scope.ts';
import { chatWebhookUrl, postToChatWebhook } from '#lib/integrations/chat-webhook.ts';
import { integrationRepository } from '#lib/integrations/integration-repository.ts';
import { log } from '#lib/log/logger.ts';
import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { whoIsOnCall } from '#lib/on-call/on-call-service.ts';
import { imsConfigRepository, type ImsConfig } from '#lib/workspaces/ims-config-repository.ts';
import { maskPhone, type Channel, type Delivery } from './delivery.ts';
import { deliveryRepository } from './delivery-repository.ts';
import {
  chatMessage,
  mailMessage,
  notificationContent,
  smsText,
  type NotificationContent,
} from './notification-messages.ts';
import { silencedBy } from './silence.ts';

/** One message to send: where, to whom as the record names them, and how. */
interface Send {
  channel: Channel;
  recipient: string;
  send(content: NotificationContent): Promise<void>;
}

/** The IMS settings decide; a workspace that never set them up gets the spec's defaults (both on). */
const wanted = ({ event }: IncidentNotification, config: ImsConfig | undefined): boolean =>
  event === 'RESOLVED' ? (config?.notifyOnResolve ?? true) : (config?.notifyOnCreate ?? true);

/** A war room for the incidents that need people together: opened HIGH or CRITICAL, or escalated to it. */
const wantsWarRoom = ({ event, priority }: IncidentNotification): boolean =>
  event !== 'RESOLVED' && (priority === 'HIGH' || priority === 'CRITICAL');

/**
 * Whom the event reaches: the workspace's chat webhook, the on-call members' e-mail and the IMS alert
 * address (each address once), and the SMS number of each on-call member who connected one.
 */
const sendsFor = async (scope: Scope, config: ImsConfig | undefined, onCall: { userId: string; email: string }[]) => {
  const { ports, workspaceId } = scope;
  const sends: Send[] = [];
  const chat = await chatWebhookUrl(ports, workspaceId);
  if (chat) {
    const channel = config?.slackChannel ?? chat.channel;
    sends.push({
      channel: 'chat',
      recipient: channel ?? 'chat webhook',
      send: async (content) => {
        const refused = await postToChatWebhook(chat.url, chatMessage(content, channel), {
          allowLoopback: ports.integrations.allowLoopbackHttp,
        });
        if (refused) throw new Error(refused);
      },
    });
  }
  const emails = [
    ...new Set(
      [...onCall.map(({ email }) => email), ...(config?.alertEmail ? [config.alertEmail] : [])].map((email) =>
        email.toLowerCase(),
      ),
    ),
  ];
  for (const email of emails) {
    sends.push({ channel: 'email', recipient: email, send: (content) => ports.mail.send(mailMessage(content, email)) });
  }
  const integrations = integrationRepository(ports.table, workspaceId);
  const phones = await Promise.all(onCall.map(({ userId }) => integrations.findIntegration(userId, 'sms')));
  for (const phone of phones) {
    if (phone?.status !== 'ACTIVE' || !phone.phoneNumber) continue;
    const to = phone.phoneNumber;
    sends.push({
      channel: 'sms',
      recipient: maskPhone(to),
      send: (content) => ports.sms.send({ to, text: smsText(content) }),
    });
  }
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
 * Sends one incident event to everyone it concerns, recording every attempt. Deliveries already SENT or
 * MUTED are not repeated, so a redelivered or retried message reaches nobody twice; during silent hours
 * each delivery is recorded MUTED and nothing is sent. A failed delivery fails the message, and SQS
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
  const config = await imsConfigRepository(ports.table, workspaceId).getImsConfig();
  if (!wanted(notification, config)) return;
  const onCall = await whoIsOnCall(scope, new Date(eventAt));
  const sends = await sendsFor(scope, config, onCall);
  const deliveries = deliveryRepository(ports.table, workspaceId);
  const earlier = await deliveries.queryEventDeliveries({ incidentId, event, eventAt });
  const settled = new Set(
    earlier.filter(({ status }) => status !== 'FAILED').map(({ channel, recipient }) => `${channel}#${recipient}`),
  );
  const pending = sends.filter(({ channel, recipient }) => !settled.has(`${channel}#${recipient}`));
  if (pending.length === 0) return;
  const silence = await silencedBy(scope, incident, new Date(eventAt));
  const meetingUrl = !silence && wantsWarRoom(notification) ? await warRoom(scope, incident, earlier) : undefined;
  const content = notificationContent(notification, incident, {
    appUrl: ports.mail.appUrl,
    onCall: onCall.map(({ email }) => email),
    meetingUrl,
  });
  let failed = 0;
  for (const { channel, recipient, send } of pending) {
    const target = { incidentId, event, eventAt, channel, recipient };
    const at = () => ports.clock.now().toISOString();
    if (silence) {
      await deliveries.recordAttempt(target, { at: at(), outcome: 'MUTED', detail: silence });
      continue;
    }
    try {
      await send(content);
      await deliveries.recordAttempt(target, { at: at(), outcome: 'SENT' }, meetingUrl);
    } catch (error) {
      failed += 1;
      await deliveries.recordAttempt(target, {
        at: at(),
        outcome: 'FAILED',
        detail: (error as Error).message.slice(0, 300),
      });
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${pending.length} notifications of ${incidentId} ${event} failed`);
};
