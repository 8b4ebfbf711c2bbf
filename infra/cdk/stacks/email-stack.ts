import { Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';

export interface EmailStackProps extends StackProps {
  mailDomain: string;
}

/**
 * The SES domain identity mail is sent from. Routes flagged `sendsEmail` in the route table
 * get `identity.grantSendEmail(fn)`; no other function can send mail.
 */
export class EmailStack extends Stack {
  readonly identity: ses.EmailIdentity;

  constructor(scope: Construct, id: string, props: EmailStackProps) {
    super(scope, id, props);
    this.identity = new ses.EmailIdentity(this, 'MailDomain', {
      identity: ses.Identity.domain(props.mailDomain),
    });
  }
}
