import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';
import { mail } from '#lib/ports/mail/mail-need.ts';
import { smsDelivery } from '#lib/ports/sms/sms-need.ts';
import { credentialKeys } from '#lib/ports/credential-keys/credential-keys-need.ts';
import { integrationProviders } from '#lib/ports/integration-providers/integration-providers-need.ts';
import { network } from '#lib/ports/network/network-need.ts';
import { signingKeys } from '#lib/ports/signing-keys/signing-keys-need.ts';
import { metrics } from '#lib/ports/metrics/metrics-need.ts';
import { pushKeys } from '#lib/ports/push-keys/push-keys-need.ts';

/**
 * Turns incident events into chat posts, e-mail (through the mail outbox), SMS and Web Push, with war-room links
 * from the video tool and signed acknowledge links: the one function that reaches the receivers, so no
 * request waits on them.
 */
export const notificationWorker: FunctionDeclaration = {
  name: 'notification-worker',
  description: 'Sends the notifications of incident events queued on the notifications queue',
  needs: [
    tableReadWrite,
    mail,
    smsDelivery,
    credentialKeys,
    integrationProviders,
    network,
    signingKeys,
    metrics,
    pushKeys,
  ],
};
