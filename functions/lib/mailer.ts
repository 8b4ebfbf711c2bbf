import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SESClient } from '@aws-sdk/client-ses';
import { MAIL_HOURLY_CAP_WARNING } from '../../shared/constants';
import { getConfig } from './config';
import type { Db } from './db/service';
import { ServiceUnavailable } from './errors';
import { logger } from './logger';
import { buildEml, type MailMessage } from './mail/eml';
import type { MailTemplate } from './mail/template';
import { claimLimits, clientNetwork, hashedKeyPart, type LimitRule } from './rate-limit';

export type { MailMessage } from './mail/eml';

/**
 * One client per Lambda instance, made on the first send (the SDK loaded then, mail/ses-sdk.ts):
 * a cold start that sends nothing (a refused or rate-limited request) pays neither compiling
 * the SES client nor the 5 ms of building it. The region comes from
 * AWS_REGION, which Lambda sets; the client is never used locally, where mail goes to the outbox
 * folder instead.
 */
let ses: SESClient | undefined;

export interface MailerOptions {
  /** Sender address, e.g. 'TopPubs <login@toppubs.example>'. */
  from: string;
  /** Set locally: write .eml files here instead of calling SES. */
  outboxDir?: string | undefined;
  /** SES configuration set named on every send, so bounces and complaints are published. */
  configurationSet?: string | undefined;
  client?: SESClient;
}

export interface SentMail {
  /** SES's message id, or the captured file's name locally. */
  messageId: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

/** `<ISO time>-<random>.eml`: sorts by time, and never collides within one millisecond. */
function outboxFileName(now: Date): string {
  return `${now.toISOString()}-${randomBytes(4).toString('hex')}.eml`;
}

/** The transport: SES in AWS, .eml files in the outbox folder locally. */
export function createMailer(options: MailerOptions): Mailer {
  return {
    async send(message) {
      const from = message.from ?? options.from;
      if (options.outboxDir) {
        const now = new Date();
        const fileName = outboxFileName(now);
        await mkdir(options.outboxDir, { recursive: true });
        await writeFile(join(options.outboxDir, fileName), buildEml(message, { from, date: now }), 'utf8');
        return { messageId: fileName };
      }
      const { SESClient, SendEmailCommand, SendRawEmailCommand } = await import('./mail/ses-sdk');
      const client = options.client ?? (ses ??= new SESClient({}));
      const configurationSet = options.configurationSet ? { ConfigurationSetName: options.configurationSet } : {};
      // SendEmail takes no headers of our own: a mail that carries some goes out whole, as built.
      const output = message.headers
        ? await client.send(
            new SendRawEmailCommand({
              Source: from,
              ...configurationSet,
              Destinations: [message.to],
              RawMessage: { Data: Buffer.from(buildEml(message, { from }), 'utf8') },
            }),
          )
        : await client.send(
            new SendEmailCommand({
              Source: from,
              ...configurationSet,
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

// One mailer per function config (one per Lambda instance in AWS; the local runtime gives each
// function its own). Reading the sender through the config means a function without the email
// capability fails here, as SES would refuse it.
const mailers = new WeakMap<object, Mailer>();

function configuredMailer(): Mailer {
  const config = getConfig();
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = createMailer({
      from: config.mailFrom,
      outboxDir: config.mailOutboxDir,
      configurationSet: config.mailConfigurationSet,
    });
    mailers.set(config, mailer);
  }
  return mailer;
}

/**
 * A kind of mail the product sends: its template and the limits that protect the recipient and
 * the service. Every kind gets the per-address cooldown by declaring it; nothing else is needed.
 */
export interface MailKind<Data> {
  /** Names the kind's rate-limit items and log lines, e.g. 'login-email'. */
  name: string;
  template: MailTemplate<Data>;
  /** One mail of this kind per address per `seconds`, counted from the last one sent. */
  cooldown: { seconds: number; message: (waitSeconds: number) => string };
  /**
   * At most `limit` mails of this kind per address per UTC day, whoever asks (inbox bombing).
   * Only for kinds the service or a signed-in sender causes: for a kind anyone may ask for (a
   * login link), a cap per address alone would let a stranger use it up and lock the person out
   * for the day; use `dailyPerAddressPerClient` instead.
   */
  dailyPerAddress?: { limit: number; message: (waitSeconds: number) => string };
  /**
   * At most `limit` mails of this kind per address per UTC day asked for from one client network
   * (`clientNetwork` of the asker's IP: an IPv4 address, an IPv6 /64). What one network asked for
   * never refuses another, so a stranger flooding someone's address cannot lock the person out
   * of their own mail. sendMail then needs `clientIp`.
   */
  dailyPerAddressPerClient?: { limit: number; message: (waitSeconds: number) => string };
  /**
   * The whole service's cap per hour (SES quota, reputation and cost): the last resort, checked
   * last. From MAIL_HOURLY_CAP_WARNING.percent of it on, every mail is logged and counted in a
   * metric that an alarm watches, so an operator hears of a flood before the cap refuses anyone.
   */
  hourlyOverall: { limit: number; message: (waitSeconds: number) => string };
  /** The 503 message when the mail cannot be sent. */
  unavailableMessage: string;
  /** The sender, read when a mail is sent, when not MAIL_FROM (login mail's): e.g. transfers'. */
  from?: () => string;
}

export function defineMailKind<Data>(kind: MailKind<Data>): MailKind<Data> {
  if (!/^[a-z0-9-]{1,40}$/.test(kind.name)) throw new Error(`Mail kind '${kind.name}': use a-z, 0-9 and '-'`);
  return kind;
}

const DAY_SECONDS = 24 * 3600;

/** The per-address cooldown's key: the address hashed, so rate-limit items hold no addresses in clear. */
export const mailCooldownKey = (kind: { name: string }, address: string) =>
  `${kind.name}:${hashedKeyPart(normaliseAddress(address))}`;

const normaliseAddress = (address: string) => address.trim().toLowerCase();

/**
 * The mailer's own metrics, with the same dimension (`service: mail`) in every function that
 * sends mail, so one alarm watches every kind. Each metric is written at once (single metric):
 * jobs and queue consumers send mail too, and not every caller flushes stored metrics.
 */
export const mailMetrics = new Metrics({
  namespace: MAIL_HOURLY_CAP_WARNING.namespace,
  serviceName: MAIL_HOURLY_CAP_WARNING.service,
  singleMetric: true,
});

/** The count of a kind's service-wide hourly window from which each mail is reported. */
const warningCount = (limit: number) => Math.max(1, Math.ceil((limit * MAIL_HOURLY_CAP_WARNING.percent) / 100));

/** A mail that finds its kind's service-wide hourly budget nearly used up: a log line and a metric. */
function reportNearHourlyCap(kind: { name: string; hourlyOverall: { limit: number } }, count: number, refused: boolean): void {
  logger.warn('A kind of mail has used most of its service-wide hourly cap', {
    mailKind: kind.name,
    mailsThisHour: count,
    hourlyCap: kind.hourlyOverall.limit,
    refused,
  });
  try {
    mailMetrics.addMetadata('mailKind', kind.name);
    mailMetrics.addMetric(MAIL_HOURLY_CAP_WARNING.metricName, MetricUnit.Count, 1);
  } catch (error) {
    // A metric that cannot be written must not cost the person their mail: the log line stays.
    logger.warn('Could not write the mail cap metric', { mailKind: kind.name, errorName: (error as Error).name });
  }
}

/**
 * A kind's own limits, in the order they are claimed: the recipient's as asked for by this
 * client first (so a refused asker never touches the address's cooldown), then the address's,
 * the service's last.
 */
function limitsOf<Data>(kind: MailKind<Data>, address: string, clientIp: string | undefined): LimitRule[] {
  const hashed = hashedKeyPart(address);
  const rules: LimitRule[] = [];
  if (kind.dailyPerAddressPerClient) {
    if (clientIp === undefined) {
      throw new Error(`Mail kind '${kind.name}' limits mails per requesting client: pass clientIp to sendMail`);
    }
    const network = hashedKeyPart(clientNetwork(clientIp));
    rules.push({
      kind: 'window',
      key: `${kind.name}:day-net:${hashed}:${network}`,
      windowSeconds: DAY_SECONDS,
      ...kind.dailyPerAddressPerClient,
    });
  }
  rules.push({ kind: 'cooldown', key: mailCooldownKey(kind, address), ...kind.cooldown });
  if (kind.dailyPerAddress) {
    rules.push({ kind: 'window', key: `${kind.name}:day:${hashed}`, windowSeconds: DAY_SECONDS, ...kind.dailyPerAddress });
  }
  rules.push({
    kind: 'window',
    key: `${kind.name}:all`,
    windowSeconds: 3600,
    ...kind.hourlyOverall,
    nearLimit: {
      fromCount: warningCount(kind.hourlyOverall.limit),
      report: (count, refused) => reportNearHourlyCap(kind, count, refused),
    },
  });
  return rules;
}

/**
 * Sends one mail of a kind to an address, under its limits. In order: the caller's limits (e.g.
 * per client IP), then the kind's (per address from this client, cooldown, daily cap,
 * service-wide cap); a refusal is a 429 with the limit's message and exact Retry-After. A kind
 * limited per client needs `clientIp`. Only then is the data made (`data` may issue
 * the token the mail carries, so a refused request issues nothing), the template rendered and
 * the mail sent. If anything fails after the limits were claimed, they are given back, so a
 * failed send never locks the person out; a transport failure answers 503 with the kind's
 * message.
 */
export async function sendMail<Data>(
  db: Db,
  kind: MailKind<Data>,
  options: {
    to: string;
    data: () => Data | Promise<Data>;
    callerLimits?: readonly LimitRule[];
    /** The asking client's IP, for a kind with `dailyPerAddressPerClient` (required there). */
    clientIp?: string;
    now?: Date;
    mailer?: Mailer;
  },
): Promise<SentMail> {
  const to = normaliseAddress(options.to);
  const claimed = await claimLimits(db, [...(options.callerLimits ?? []), ...limitsOf(kind, to, options.clientIp)], options.now);
  try {
    const content = kind.template(await options.data());
    const from = kind.from?.();
    try {
      return await (options.mailer ?? configuredMailer()).send({ to, ...content, ...(from ? { from } : {}) });
    } catch (error) {
      // Only the error's name and status: the message may quote the request, which holds the mail.
      const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      logger.error('Could not send a mail', { mailKind: kind.name, errorName: name, httpStatusCode: $metadata?.httpStatusCode });
      throw new ServiceUnavailable(kind.unavailableMessage, { cause: error });
    }
  } catch (error) {
    await claimed.release().catch((releaseError: unknown) => {
      logger.warn('Could not give back the limits of an unsent mail', {
        mailKind: kind.name,
        errorName: (releaseError as Error).name,
      });
    });
    throw error;
  }
}
