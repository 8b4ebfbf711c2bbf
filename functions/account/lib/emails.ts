import { APP_NAME } from '../../../shared/constants';
import { actionLinkMail } from '../../lib/mail/template';
import { defineMailKind } from '../../lib/mailer';
import { clientNetwork, describeWait, hashedKeyPart, type LimitRule } from '../../lib/rate-limit';

const inSeconds = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * Login emails the whole service sends in an hour at most. SES's default production quota is
 * 50,000 mails a day (at 14 a second): 2,000 an hour is 48,000 a day, so even a day-long flood
 * at the cap stays inside the default quota, while the cap is far above what people logging in
 * use. A client network may ask for 10 per 10 minutes and 50 a day (loginEmailCallerLimits), so
 * using the cap up takes 200 networks within 10 minutes, or 40 networks' whole day for every
 * hour it is kept used up (500 an hour took 50, and 10). The alarm fires from 80% of it
 * (MAIL_HOURLY_CAP_WARNING), long before it refuses anyone; when the account's SES quota is
 * raised, raise this with it.
 */
export const LOGIN_EMAILS_PER_HOUR_OVERALL = 2_000;

/**
 * The email with a one-time login link. Anyone may ask for one for any address, so no limit of
 * an address alone may last long enough to be a lock a stranger can turn on someone:
 * - one per address per minute, whoever asks (the cooldown). Inbox flooding from many networks
 *   stays at most 60 an hour, and a stranger's request leaves a working link in the inbox;
 * - 10 a day per address from one client network (an IPv4 address, an IPv6 /64): a stranger's
 *   network uses up its own share, never the person's, who still gets links from theirs;
 * - 2,000 an hour service-wide (LOGIN_EMAILS_PER_HOUR_OVERALL), the last resort.
 * There is deliberately no cap per address across networks (20 an hour, say): whoever controls
 * a couple of networks could then keep the person from logging in for most of every hour. The
 * per-client limits (loginEmailCallerLimits) bound what each network can send in all.
 */
export const loginEmail = defineMailKind<{ url: string }>({
  name: 'login-email',
  template: ({ url }) =>
    actionLinkMail({
      subject: `Your ${APP_NAME} login link`,
      intro: `Log in to ${APP_NAME} with this link:`,
      linkLabel: `Log in to ${APP_NAME}`,
      url,
      note: 'This link works once, for 10 minutes. If you did not ask for it, ignore this email.',
    }),
  cooldown: {
    seconds: 60,
    message: (wait) => `A login link was just sent to this address. Wait ${inSeconds(wait)} before asking for another.`,
  },
  dailyPerAddressPerClient: {
    limit: 10,
    message: (wait) =>
      `Too many login links for this address were asked for from your network. Try again in ${describeWait(wait)}, or log in another way.`,
  },
  hourlyOverall: {
    limit: LOGIN_EMAILS_PER_HOUR_OVERALL,
    message: () => 'Too many login emails are being sent right now. Try again in a few minutes.',
  },
  unavailableMessage: 'We could not send the login email right now. Please try again in a minute.',
});

/** The email with a link that verifies the account's address; limited like login emails. */
export const verificationEmail = defineMailKind<{ url: string }>({
  name: 'verify-email',
  template: ({ url }) =>
    actionLinkMail({
      subject: `Verify your ${APP_NAME} email address`,
      intro: `Confirm this address for your ${APP_NAME} account with this link:`,
      linkLabel: 'Verify my email address',
      url,
      note: 'This link works once, for 24 hours. If you did not ask for it, ignore this email.',
    }),
  cooldown: {
    seconds: 60,
    message: (wait) => `A verification link was just sent to this address. Wait ${inSeconds(wait)} before asking for another.`,
  },
  hourlyOverall: {
    limit: 500,
    message: () => 'Too many verification emails are being sent right now. Try again in a few minutes.',
  },
  unavailableMessage: 'We could not send the verification email right now. Please try again in a minute.',
});

/** Login links one client network may ask for: per 10 minutes (a person retrying) and per day. */
export const LOGIN_EMAILS_PER_CLIENT = { perTenMinutes: 10, perDay: 50 };

/**
 * The per-client limits on asking for login links, claimed before the address's and the
 * service's: a client that hammers is refused by its own limit, and its refused requests are
 * still counted against it (so hammering costs the hammerer), while they never reach the
 * service-wide budget that every other person shares.
 */
export function loginEmailCallerLimits(sourceIp: string): LimitRule[] {
  const network = hashedKeyPart(clientNetwork(sourceIp));
  const message = (when: string) => (wait: number) =>
    `Too many login links were asked for from your network${when}. Try again in ${describeWait(wait)}.`;
  return [
    {
      kind: 'window',
      key: `login-email:net:${network}`,
      limit: LOGIN_EMAILS_PER_CLIENT.perTenMinutes,
      windowSeconds: 600,
      message: message(''),
      chargeEvenIfRefused: true,
    },
    {
      kind: 'window',
      key: `login-email:net-day:${network}`,
      limit: LOGIN_EMAILS_PER_CLIENT.perDay,
      windowSeconds: 24 * 3600,
      message: message(' today'),
      chargeEvenIfRefused: true,
    },
  ];
}
