import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambdaEventSources from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { QueueName, WorkQueue } from '../../../shared/queues';
import { bundledCode } from '../code-source';
import type { CodeFor } from '../code-source';
import { HandlerFunction } from '../constructs/handler-function';
import type { FunctionEnvironment } from '../constructs/handler-function';
import { notifyOnAlarm } from '../constructs/notify-on-alarm';

export interface QueuesStackProps extends StackProps {
  /** What the consumers get; each queue's URL (and send grant) is added here for the consumers that declare it. */
  environment: FunctionEnvironment;
  queues: readonly WorkQueue[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
}

const CONSUMER_MEMORY_MB = 512;
/** As long as SQS keeps anything: a message that failed every delivery stays until someone looks. */
const DEAD_LETTER_RETENTION = Duration.days(14);
/**
 * How old the oldest waiting message may get before an operator is told, per queue. Source
 * collection runs on a daily cycle (the planner runs once a day, and a host's day of batches is
 * read within it): a batch still waiting after 26 hours means collection is falling behind that
 * cycle, and it is told well before the queue's 2-day retention drops the batch. Notification
 * fan-out is meant to reach every follower within 5 minutes of the hourly run: a page still
 * waiting after 15 minutes means the consumers cannot keep up (or are failing), well before the
 * next run adds its own. The weekly digest's pages take minutes even at 100,000 readers: a page
 * still waiting after 6 hours means its consumer keeps failing, long before the 2-day retention.
 * A new queue in shared/queues.ts does not typecheck until it has its limit here.
 */
export const OLDEST_MESSAGE_AGE_LIMITS: Readonly<Record<QueueName, Duration>> = {
  'source-collection': Duration.hours(26),
  'notification-fanout': Duration.minutes(15),
  'publication-digest': Duration.hours(6),
};

/** One work queue of shared/queues.ts as deployed. */
export interface DeployedWorkQueue {
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
  consumer: HandlerFunction;
}

/**
 * One SQS queue, its dead-letter queue and its Lambda consumer per entry of shared/queues.ts.
 * A message that fails `maxReceiveCount` deliveries moves to the dead-letter queue; an operator
 * is told when one lands there, and when the oldest waiting message is older than its queue's
 * cycle allows. Functions that send to a queue live elsewhere (jobs, routes) and get its URL and
 * sqs:SendMessage through `queues` of their FunctionEnvironment.
 */
export class QueuesStack extends Stack {
  readonly queues = new Map<QueueName, DeployedWorkQueue>();
  /** The queues, by name, for the FunctionEnvironment of the functions that send to them. */
  readonly sendTargets: Partial<Record<QueueName, sqs.IQueue>> = {};
  /** Each queue's URL in its `urlVariable`, for DeploymentSettings['queues']. */
  readonly deploymentQueues: Partial<Record<QueueName, Record<string, string>>> = {};

  constructor(scope: Construct, id: string, props: QueuesStackProps) {
    super(scope, id, props);
    const codeFor = props.codeFor ?? bundledCode();
    const alarms: cloudwatch.Alarm[] = [];

    // Every queue first, so a consumer may itself send to a queue of this stack.
    const created = props.queues.map((declaration) => {
      const { queue, deadLetterQueue } = this.createQueue(declaration);
      this.sendTargets[declaration.name] = queue;
      this.deploymentQueues[declaration.name] = { [declaration.urlVariable]: queue.queueUrl };
      return { declaration, queue, deadLetterQueue };
    });
    const environment: FunctionEnvironment = {
      ...props.environment,
      queues: { ...props.environment.queues, ...this.sendTargets },
      deployment: {
        ...props.environment.deployment,
        queues: { ...props.environment.deployment.queues, ...this.deploymentQueues },
      },
    };

    for (const { declaration, queue, deadLetterQueue } of created) {
      const { consumer: declared } = declaration;
      const consumer = new HandlerFunction(this, declared.name, {
        handler: declared.handler,
        code: codeFor(declared.handler),
        environment,
        capabilities: declared.capabilities,
        memoryMb: CONSUMER_MEMORY_MB,
        timeout: Duration.seconds(declared.timeoutSeconds),
      });
      // Receive, delete and change visibility on this queue are granted by the event source itself.
      consumer.function.addEventSource(
        new lambdaEventSources.SqsEventSource(queue, {
          batchSize: declared.batchSize,
          ...(declared.maxConcurrency === undefined ? {} : { maxConcurrency: declared.maxConcurrency }),
          // The handler names the messages that failed; the others of the batch are deleted.
          reportBatchItemFailures: true,
        }),
      );

      alarms.push(
        deadLetterQueue
          .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) })
          .createAlarm(this, `${declaration.name}-dead-letters-alarm`, {
            alarmDescription: `${declaration.name}: a message failed ${declaration.maxReceiveCount} deliveries to ${declared.handler} and is in the dead-letter queue. See docs/operations.md#queue-dead-letters.`,
            threshold: 0,
            comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluationPeriods: 1,
            treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          }),
      );
      const ageLimit = OLDEST_MESSAGE_AGE_LIMITS[declaration.name];
      alarms.push(
        queue
          .metricApproximateAgeOfOldestMessage({ period: Duration.minutes(15), statistic: cloudwatch.Stats.MAXIMUM })
          .createAlarm(this, `${declaration.name}-falling-behind-alarm`, {
            alarmDescription: `${declaration.name}: the oldest waiting message is over ${ageLimit.toHumanString()} old, so its consumer is falling behind. See docs/operations.md#queue-falling-behind.`,
            threshold: ageLimit.toSeconds(),
            comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluationPeriods: 1,
            // An idle, empty queue publishes nothing: that is not falling behind.
            treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          }),
      );

      // Where an operator finds them (docs/operations.md): e.g. SourceCollectionQueueName.
      const outputPrefix = declaration.name.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
      new CfnOutput(this, `${outputPrefix}QueueName`, { value: queue.queueName });
      new CfnOutput(this, `${outputPrefix}DeadLetterQueueName`, { value: deadLetterQueue.queueName });
      this.queues.set(declaration.name, { queue, deadLetterQueue, consumer });
    }
    notifyOnAlarm(props.environment.alarmTopic, alarms);
  }

  private createQueue(declaration: WorkQueue): { queue: sqs.Queue; deadLetterQueue: sqs.Queue } {
    // A FIFO queue needs a FIFO dead-letter queue; CloudFormation adds the `.fifo` to both generated names.
    const fifo = declaration.fifo ? { fifo: true } : {};
    const deadLetterQueue = new sqs.Queue(this, `${declaration.name}-dead-letters`, {
      ...fifo,
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
    Validations.of(deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: `This queue is itself the dead-letter queue of the ${declaration.name} work queue; nothing consumes it, an operator redrives it.`,
    });
    const queue = new sqs.Queue(this, declaration.name, {
      // Senders give each message a deduplication id (the batch it is), never the body's hash.
      ...(declaration.fifo ? { fifo: true, contentBasedDeduplication: false } : {}),
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      visibilityTimeout: Duration.seconds(declaration.visibilityTimeoutSeconds),
      retentionPeriod: Duration.seconds(declaration.retentionSeconds),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: declaration.maxReceiveCount },
    });
    return { queue, deadLetterQueue };
  }
}
