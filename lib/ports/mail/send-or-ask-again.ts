import { log } from '#lib/log/logger.ts';
import type { Mailer, MailMessage } from './mail.ts';
import { recipientDomain } from './recipient-domain.ts';

/**
 * Sends the mail of a request that has written its data already (a one-time code, an invitation): a refusing
 * outbox must not turn that request into a 500, nor answer differently for an address with an account than
 * for one without (resend_otp and forgot-password answer the same for both). The loss is logged, with the
 * recipient's domain only, and the user asks again: resend the code, forgot-password, re-send the invitation.
 */
export const sendOrAskAgain = async (mail: Mailer, message: MailMessage): Promise<void> => {
  try {
    await mail.send(message);
  } catch (error) {
    log.error('mail not queued; the recipient can ask for it again', {
      recipientDomain: recipientDomain(message.to),
      error,
    });
  }
};
