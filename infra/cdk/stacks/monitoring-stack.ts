import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { MAIL_HOURLY_CAP_WARNING } from '../../../shared/constants';
import { SES_REPUTATION_ALARMS } from './email-stack';
import type { Construct } from 'constructs';
import { notifyOnAlarm } from '../constructs/notify-on-alarm';

export interface MonitoringStackProps extends StackProps {
  /** Prefix of every stack of this deployment, e.g. 'TopPubs-prod': function names start with it. */
  prefix: string;
  httpApi: apigwv2.IHttpApi;
  table: dynamodb.ITable;
  /** The apps (handler folders) that have routes, for the dashboard's rows. */
  apps: readonly string[];
  /** Who is told when an alarm fires; without it the topic exists and can be subscribed later. */
  alarmEmail?: string | undefined;
  /** The account's SES reputation (AWS/SES, no dimension), which decides whether login mail is sent. */
  mailReputation: { bounceRate: cloudwatch.IMetric; complaintRate: cloudwatch.IMetric };
  /** A monthly cost budget in US dollars, with warnings at 80% (forecast) and 100% (actual). */
  monthlyBudgetUsd?: number | undefined;
}

/** Thresholds an operator can reason about; docs/operations.md says what to do when each fires. */
export const ALARM_THRESHOLDS = {
  /** Share of API requests answered 5xx over 5 minutes. */
  api5xxRatePercent: 1,
  /** p99 of the API's own latency over 5 minutes (boards answer in tens of ms). */
  apiP99LatencyMs: 2_000,
  /** Errors of one function over 5 minutes: a handful is a bad deploy or a dependency down. */
  functionErrors: 5,
} as const;

/**
 * Where an operator looks: one alarm topic, the API and table alarms, the dashboard with the
 * golden signals per app and an optional budget. Per-function and per-job alarms live next to
 * their functions (HandlerFunction, JobsStack) and notify this topic.
 */
export class MonitoringStack extends Stack {
  readonly alarmTopic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);

    this.alarmTopic = new sns.Topic(this, 'Alarms', { displayName: `${props.prefix} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    Validations.of(this.alarmTopic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry only alarm names and metric values, no customer data; SSE with a customer key would ' +
        'also need a key policy for CloudWatch, for nothing to protect.',
    });
    const alarm = (name: string, options: Omit<cloudwatch.AlarmProps, 'treatMissingData'>) => {
      const created = new cloudwatch.Alarm(this, name, {
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
      });
      notifyOnAlarm(this.alarmTopic, [created]);
      return created;
    };

    const apiDimensions = { ApiId: props.httpApi.apiId };
    const apiMetric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: apiDimensions,
        statistic,
        period: Duration.minutes(5),
      });
    const requests = apiMetric('Count', 'Sum');
    const serverErrors = apiMetric('5xx', 'Sum');
    const latencyP99 = apiMetric('Latency', 'p99');
    const serverErrorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: 'API 5xx rate (%)',
      period: Duration.minutes(5),
    });

    alarm('Api5xxRate', {
      metric: serverErrorRate,
      alarmDescription: `More than ${ALARM_THRESHOLDS.api5xxRatePercent}% of API requests answered 5xx for 10 minutes. See docs/operations.md#api-5xx-rate.`,
      threshold: ALARM_THRESHOLDS.api5xxRatePercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
    });
    alarm('ApiP99Latency', {
      metric: latencyP99,
      alarmDescription: `API p99 latency above ${ALARM_THRESHOLDS.apiP99LatencyMs} ms for 15 minutes. See docs/operations.md#api-p99-latency.`,
      threshold: ALARM_THRESHOLDS.apiP99LatencyMs,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });

    const tableErrors = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    // Table-level metrics: every operation on the table and its indexes counts.
    alarm('TableThrottles', {
      metric: tableErrors('ThrottledRequests'),
      alarmDescription: 'DynamoDB throttled requests on the table. See docs/operations.md#table-throttles.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    alarm('TableSystemErrors', {
      metric: tableErrors('SystemErrors'),
      alarmDescription: 'DynamoDB answered with internal errors. See docs/operations.md#table-system-errors.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    alarm('MailBounceRate', {
      metric: props.mailReputation.bounceRate,
      alarmDescription: `SES bounce rate above ${SES_REPUTATION_ALARMS.bounceRate * 100}%: AWS reviews the account at 5% and pauses sending at 10%. See docs/operations.md#mail-bounce-rate.`,
      threshold: SES_REPUTATION_ALARMS.bounceRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    alarm('MailComplaintRate', {
      metric: props.mailReputation.complaintRate,
      alarmDescription: `SES complaint rate above ${SES_REPUTATION_ALARMS.complaintRate * 100}%: AWS reviews the account at 0.1% and pauses sending at 0.5%. See docs/operations.md#mail-complaint-rate.`,
      threshold: SES_REPUTATION_ALARMS.complaintRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    // Every function that sends mail counts each mail sent (or refused) from 80% of its kind's
    // service-wide hourly cap on (functions/lib/mailer.ts), under one dimension whatever the
    // function: a flood is heard of before the cap refuses everyone.
    alarm('MailHourlyCapNearlyUsed', {
      metric: new cloudwatch.Metric({
        namespace: MAIL_HOURLY_CAP_WARNING.namespace,
        metricName: MAIL_HOURLY_CAP_WARNING.metricName,
        dimensionsMap: { service: MAIL_HOURLY_CAP_WARNING.service },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      alarmDescription: `A kind of mail has used ${MAIL_HOURLY_CAP_WARNING.percent}% of its service-wide hourly cap: past the cap, everyone asking for that mail is refused until the hour ends. See docs/operations.md#mail-hourly-cap-nearly-used.`,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    // The daily reconciliation job (functions/billing/reconcile-payments.ts) counts what it found;
    // Powertools names the service after the handler's folder.
    const reconciliation = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'TopPubs',
        metricName,
        dimensionsMap: { service: 'billing' },
        statistic: 'Sum',
        period: Duration.days(1),
      });
    alarm('ReconciliationDifferences', {
      metric: new cloudwatch.MathExpression({
        expression: 'FILL(differences, 0) + FILL(failures, 0)',
        usingMetrics: {
          differences: reconciliation('ReconciliationDifferences'),
          failures: reconciliation('ReconciliationFailures'),
        },
        label: 'Reconciliation differences and sellers not reconciled',
        period: Duration.days(1),
      }),
      alarmDescription:
        'The daily reconciliation found a difference between our payment records and a gateway, or could not reconcile a seller. See docs/operations.md#a-reconciliation-difference-was-reported.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.prefix,
      defaultInterval: Duration.hours(24),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# ${props.prefix}\nAlarms and what to do: docs/operations.md`,
        width: 24,
        height: 2,
      }),
      new cloudwatch.GraphWidget({ title: 'API requests (traffic)', left: [requests], width: 8 }),
      new cloudwatch.GraphWidget({ title: 'API 5xx rate % (errors)', left: [serverErrorRate], width: 8 }),
      new cloudwatch.GraphWidget({
        title: 'API latency (p50, p99)',
        left: [apiMetric('Latency', 'p50'), latencyP99],
        width: 8,
      }),
    );
    // One row per app: its functions found by name (an unquoted value matches names containing
    // it), since they live in their own stacks and CloudFormation names them after the stack.
    for (const app of props.apps) {
      const functionsOfApp = (metricName: string, statistic: string, label: string, combine: 'SUM' | 'MAX' = 'SUM') =>
        new cloudwatch.MathExpression({
          expression: `${combine}(SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" FunctionName=${props.prefix}-Routes-${app}', '${statistic}', 300))`,
          label,
          period: Duration.minutes(5),
        });
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({
          title: `${app}: invocations`,
          left: [functionsOfApp('Invocations', 'Sum', 'Invocations')],
          width: 6,
        }),
        new cloudwatch.GraphWidget({
          title: `${app}: errors and throttles`,
          left: [functionsOfApp('Errors', 'Sum', 'Errors'), functionsOfApp('Throttles', 'Sum', 'Throttles')],
          width: 6,
        }),
        new cloudwatch.GraphWidget({
          title: `${app}: duration p99 (ms)`,
          left: [functionsOfApp('Duration', 'p99', 'slowest function p99', 'MAX')],
          width: 6,
        }),
        new cloudwatch.GraphWidget({
          title: `${app}: business metrics`,
          left: [
            new cloudwatch.MathExpression({
              expression: `SEARCH('{TopPubs,service} service="${app}"', 'Sum', 300)`,
              label: '',
              period: Duration.minutes(5),
            }),
          ],
          width: 6,
        }),
      );
    }

    if (props.monthlyBudgetUsd !== undefined && props.alarmEmail) {
      const subscribers = [{ subscriptionType: 'EMAIL', address: props.alarmEmail }];
      new budgets.CfnBudget(this, 'MonthlyBudget', {
        budget: {
          budgetName: `${props.prefix} monthly`,
          budgetType: 'COST',
          timeUnit: 'MONTHLY',
          // Account-wide: a tag filter would count nothing until the tag is activated for billing.
          budgetLimit: { amount: props.monthlyBudgetUsd, unit: 'USD' },
        },
        notificationsWithSubscribers: [
          {
            notification: { notificationType: 'FORECASTED', comparisonOperator: 'GREATER_THAN', threshold: 80 },
            subscribers,
          },
          { notification: { notificationType: 'ACTUAL', comparisonOperator: 'GREATER_THAN', threshold: 100 }, subscribers },
        ],
      });
    }

    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboardName });
  }
}
