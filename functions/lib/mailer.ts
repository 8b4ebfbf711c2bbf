import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { getConfig } from './config';
import { buildEml, type MailMessage } from './mail/eml';

export type { MailMessage } from './mail/eml';

/**
 * One client per Lambda instance. The region comes from AWS_REGION, which Lambda sets; the
 * client is never used locally, where mail goes to the outbox folder instead.
 */
const ses = new SESClient({});

export interface MailerOptions {
  /** Sender address, e.g. 'TopPubs <login@toppubs.example>'. */
  from: string;
  /** Set locally: write .eml files here instead of calling SES. */
  outboxDir?: string | undefined;
  client?: SESClient;
}

export interface SentMail {
  /** SES's message id, or the captured file's name locally. */
  messageId: string;
}

/** `<ISO time>-<random>.eml`: sorts by time, and never collides within one millisecond. */
function outboxFileName(now: Date): string {
  return `${now.toISOString()}-${randomBytes(4).toString('hex')}.eml`;
}

export function createMailer(options: MailerOptions) {
  const client = options.client ?? ses;
  return {
    async send(message: MailMessage): Promise<SentMail> {
      if (options.outboxDir) {
        const now = new Date();
        const fileName = outboxFileName(now);
        await mkdir(options.outboxDir, { recursive: true });
        await writeFile(join(options.outboxDir, fileName), buildEml(message, { from: options.from, date: now }), 'utf8');
        return { messageId: fileName };
      }
      const output = await client.send(
        new SendEmailCommand({
          Source: options.from,
          Destination: { ToAddresses: [message.to] },
          Message: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              Html: { Data: message.html, Charset: 'UTF-8' },
            },
          },
        }),
      );
      return { messageId: output.MessageId ?? '' };
    },
  };
}

// One mailer per function config (one per Lambda instance in AWS). Reading the sender through
// the config means a function without the email capability fails here, as SES would refuse it.
const mailers = new WeakMap<object, ReturnType<typeof createMailer>>();

/** Sends through SES in AWS, or captures to the local outbox when MAIL_OUTBOX_DIR is set. */
export function sendMail(message: MailMessage): Promise<SentMail> {
  const config = getConfig();
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = createMailer({ from: config.mailFrom, outboxDir: config.mailOutboxDir });
    mailers.set(config, mailer);
  }
  return mailer.send(message);
}
