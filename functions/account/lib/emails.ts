import { APP_NAME } from '../../../shared/constants';
import { actionLinkMail } from '../../lib/mail/template';
import { defineMailKind } from '../../lib/mailer';

const inSeconds = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/** The email with a one-time login link; one per address per minute, 500 an hour service-wide. */
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
  hourlyOverall: {
    limit: 500,
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
