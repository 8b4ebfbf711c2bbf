import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { JOB_MEMORY_MB, JOB_TIMEOUT_MINUTES, type JobSchedule, NETWORK_JOB_TIMEOUT_MINUTES } from '../../../shared/schedules';
import { bundledCode } from '../code-source';
import type { CodeFor } from '../code-source';
import { HandlerFunction } from '../constructs/handler-function';
import { notifyOnAlarm } from '../constructs/notify-on-alarm';
import type { FunctionEnvironment } from '../constructs/handler-function';

export interface JobsStackProps extends StackProps {
  environment: FunctionEnvironment;
  jobs: readonly JobSchedule[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
}

const JOB_TIMEOUT = Duration.minutes(JOB_TIMEOUT_MINUTES);
const NETWORK_JOB_TIMEOUT = Duration.minutes(NETWORK_JOB_TIMEOUT_MINUTES);

/** CloudWatch takes alarm periods of at most a day, and evaluates at most seven days of them. */
const MAX_ALARM_PERIOD = Duration.days(1);
const MAX_ALARM_WINDOW = Duration.days(7);

/**
 * One function and one EventBridge rate rule per entry of shared/schedules.ts. A schedule that
 * cannot reach its function retries, then lands in a dead-letter queue; an operator is told when
 * a job fails (its function's error alarm), lands there, or has not run for two of its periods.
 */
export class JobsStack extends Stack {
  readonly functions = new Map<string, HandlerFunction>();

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const codeFor = props.codeFor ?? bundledCode();
    const deadLetters = new sqs.Queue(this, 'UndeliveredRuns', {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the job schedules (EventBridge targets), not a work queue.',
    });
    const alarms: cloudwatch.Alarm[] = [];
    alarms.push(
      deadLetters
        .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) })
        .createAlarm(this, 'UndeliveredRunsAlarm', {
          alarmDescription:
            'A scheduled job run could not be delivered to its function. See docs/operations.md#job-not-delivered.',
          threshold: 0,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
    );

    for (const job of props.jobs) {
      const jobFunction = new HandlerFunction(this, job.name, {
        handler: job.handler,
        code: codeFor(job.handler),
        environment: props.environment,
        capabilities: job.capabilities,
        memoryMb: job.memoryMb ?? JOB_MEMORY_MB,
        timeout: job.usesNetwork ? NETWORK_JOB_TIMEOUT : JOB_TIMEOUT,
      });
      new events.Rule(this, `${job.name}-schedule`, {
        description: job.description,
        schedule: events.Schedule.rate(Duration.minutes(job.everyMinutes)),
        targets: [
          new targets.LambdaFunction(jobFunction.function, {
            retryAttempts: 2,
            maxEventAge: Duration.hours(1),
            deadLetterQueue: deadLetters,
          }),
        ],
      });
      // Two of the job's periods without a run; a job rarer than daily (the weekly digest) is
      // watched over as many whole days as CloudWatch allows, all of which must be empty.
      const window = Duration.minutes(Math.min(job.everyMinutes * 2, MAX_ALARM_WINDOW.toMinutes()));
      const period = Duration.minutes(Math.min(window.toMinutes(), MAX_ALARM_PERIOD.toMinutes()));
      const evaluationPeriods = Math.ceil(window.toMinutes() / period.toMinutes());
      alarms.push(
        jobFunction.function.metricInvocations({ period }).createAlarm(this, `${job.name}-did-not-run`, {
          alarmDescription: `${job.name} has not run for ${window.toHumanString()} (every ${job.everyMinutes} minutes expected). See docs/operations.md#job-did-not-run.`,
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
          evaluationPeriods,
          datapointsToAlarm: evaluationPeriods,
          // No data at all is the failure this alarm exists for.
          treatMissingData: cloudwatch.TreatMissingData.BREACHING,
        }),
      );
      this.functions.set(job.name, jobFunction);
    }
    notifyOnAlarm(props.environment.alarmTopic, alarms);
  }
}
