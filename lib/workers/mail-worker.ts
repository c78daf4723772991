import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { mailDelivery } from '#lib/ports/mail/mail-delivery-need.ts';

/** The only function that talks to the mail service: the API functions put mail on its queue. */
export const mailWorker: FunctionDeclaration = {
  name: 'mail-worker',
  description: 'Delivers the e-mail queued on the mail outbox',
  needs: [mailDelivery],
};
