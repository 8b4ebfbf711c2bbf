import { Duration, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';

export interface EmailStackProps extends StackProps {
  mailDomain: string;
}

/**
 * Where AWS reviews an account, and where it pauses sending: login links stop reaching anyone
 * long before that, so the alarms fire at half of AWS's review thresholds.
 * https://docs.aws.amazon.com/ses/latest/dg/reputationdashboard-cloudwatch-alarm.html
 */
export const SES_REPUTATION_ALARMS = { bounceRate: 0.025, complaintRate: 0.0005 } as const;

/**
 * The SES domain identity mail is sent from, and the configuration set every send names: it
 * publishes bounces, complaints, rejects and deliveries to CloudWatch and keeps reputation
 * metrics. Routes flagged `sendsEmail` in the route table get `identity.grantSendEmail(fn)`;
 * no other function can send mail.
 */
export class EmailStack extends Stack {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  readonly bounceRate: cloudwatch.Metric;
  readonly complaintRate: cloudwatch.Metric;

  constructor(scope: Construct, id: string, props: EmailStackProps) {
    super(scope, id, props);
    this.configurationSet = new ses.ConfigurationSet(this, 'MailEvents', {
      reputationMetrics: true,
      // A bounced or complaining address is not mailed again: each would cost reputation.
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
    });
    this.configurationSet.addEventDestination('ToCloudWatch', {
      destination: ses.EventDestination.cloudWatchDimensions([
        { name: 'mail-kind', source: ses.CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: 'login' },
      ]),
      events: [
        ses.EmailSendingEvent.BOUNCE,
        ses.EmailSendingEvent.COMPLAINT,
        ses.EmailSendingEvent.REJECT,
        ses.EmailSendingEvent.DELIVERY,
      ],
    });
    this.identity = new ses.EmailIdentity(this, 'MailDomain', {
      identity: ses.Identity.domain(props.mailDomain),
      configurationSet: this.configurationSet,
    });

    // Account-level reputation, as AWS computes it for its review: no dimension.
    const reputation = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
    this.bounceRate = reputation('Reputation.BounceRate');
    this.complaintRate = reputation('Reputation.ComplaintRate');
  }
}
