/**
 * The parts of the AWS SDK the mailer sends with (mailer.ts), loaded by the first mail it sends
 * rather than when the function is imported; in a Lambda bundle, a chunk of its own.
 */
export { SendEmailCommand, SendRawEmailCommand, SESClient } from '@aws-sdk/client-ses';
