import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { lambdaContext } from '../lambda-context';
import { isRecord, md5, md5OfAttributes, queueArn } from './protocol';
import type { Queue, Receipt, SqsClock, SqsStore, StoredMessage } from './store';

export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface ConsumerOptions {
  batchSize: number;
  consumer: SqsConsumer;
  /** The function's timeout, 1 to 900 s (1 unless given). */
  timeoutSeconds?: number;
  /** The event source's maximum concurrency, 2 to 1,000: invocations at once (unbounded unless given). */
  maxConcurrency?: number;
}

interface Consumed {
  batchSize: number;
  consumer: SqsConsumer;
  timeoutSeconds: number;
  maxConcurrency: number;
  /** Invocations in progress. */
  running: number;
  /** UpdateEventSourceMapping's Enabled: a disabled mapping receives nothing; its messages wait. */
  enabled: boolean;
}

/** What a delivery's result means: the messages it failed (the rest are deleted), why, and what was wrong with the answer. */
interface Outcome {
  failed: Set<StoredMessage>;
  reason: string;
  problem?: string;
}

/** Lambda: at most 10 records per batch from a FIFO queue, 10,000 from a standard one. */
const MAX_FIFO_BATCH_SIZE = 10;
const MAX_STANDARD_BATCH_SIZE = 10_000;
/** Lambda's range for an SQS event source's maximum concurrency. */
const MIN_MAX_CONCURRENCY = 2;
const MAX_MAX_CONCURRENCY = 1_000;

/** The consumer's answer as Lambda reads ReportBatchItemFailures: the messages to keep (the rest are deleted), and why. */
export function failuresOf(result: unknown, delivered: readonly StoredMessage[]): Outcome {
  const all = { failed: new Set(delivered) };
  if (result === undefined || result === null || !isRecord(result)) return { failed: new Set(), reason: '' };
  const items = result.batchItemFailures;
  if (items === undefined || items === null) return { failed: new Set(), reason: '' };
  if (!Array.isArray(items)) {
    return {
      ...all,
      reason: 'the consumer answered batchItemFailures that is not a list',
      problem: 'batchItemFailures is not a list',
    };
  }
  const byId = new Map(delivered.map((message) => [message.messageId, message]));
  const failed = new Set<StoredMessage>();
  for (const item of items) {
    const id: unknown = isRecord(item) ? item.itemIdentifier : undefined;
    const message = typeof id === 'string' && id !== '' ? byId.get(id) : undefined;
    if (!message) {
      const problem = `batchItemFailures names ${JSON.stringify(id ?? null)}, which is not a message of the batch`;
      return { ...all, reason: `the consumer's answer was refused (${problem})`, problem };
    }
    failed.add(message);
  }
  return { failed, reason: 'the consumer listed it in batchItemFailures' };
}

/** A received message as Lambda's SQS event carries it. */
function recordOf(queue: Queue, { message, handle }: Receipt, region: string): SQSRecord {
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, attribute] of Object.entries(message.attributes)) {
    messageAttributes[name] = {
      ...(attribute.binaryValue
        ? { binaryValue: attribute.binaryValue.toString('base64') }
        : { stringValue: attribute.stringValue }),
      stringListValues: [],
      binaryListValues: [],
      dataType: attribute.dataType,
    };
  }
  const md5OfMessageAttributes = md5OfAttributes(message.attributes);
  return {
    messageId: message.messageId,
    receiptHandle: handle,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: message.senderId,
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
      ...(message.traceHeader === undefined ? {} : { AWSTraceHeader: message.traceHeader }),
      ...(message.sequenceNumber === undefined ? {} : { SequenceNumber: message.sequenceNumber }),
      ...(message.groupId === undefined ? {} : { MessageGroupId: message.groupId }),
      ...(message.deduplicationId === undefined ? {} : { MessageDeduplicationId: message.deduplicationId }),
    },
    messageAttributes,
    md5OfBody: md5(message.body),
    ...(md5OfMessageAttributes === undefined ? {} : { md5OfMessageAttributes }),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn(region, queue),
    awsRegion: region,
  };
}

/**
 * Lambda's event source mapping with ReportBatchItemFailures, for every queue given a consumer:
 * it delivers what is visible at once, as many invocations at a time as there are batches, and
 * polls again when a delivery ends or the next hidden message shows.
 */
export class SqsPoller {
  private readonly consumers = new Map<Queue, Consumed>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  private scheduled: NodeJS.Immediate | undefined;
  private timer: { at: number; cancel: () => void } | undefined;
  private settleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: SqsStore,
    private readonly clock: SqsClock,
    private readonly region: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Refused, as Lambda refuses it, for a batch size or timeout out of range, or a visibility timeout below the function's timeout. */
  consume(queue: Queue, { batchSize, consumer, timeoutSeconds = 1, maxConcurrency }: ConsumerOptions): void {
    const maxBatchSize = queue.declaration.fifo ? MAX_FIFO_BATCH_SIZE : MAX_STANDARD_BATCH_SIZE;
    if (this.consumers.has(queue)) throw new Error(`The local SQS queue ${queue.sqsName} already has a consumer`);
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 900) {
      throw new Error(`A Lambda function's timeout is 1 to 900 seconds, not ${timeoutSeconds}`);
    }
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxBatchSize) {
      throw new Error(`Lambda takes a batch size of 1 to ${maxBatchSize} from ${queue.sqsName}, not ${batchSize}`);
    }
    if (queue.declaration.visibilityTimeoutSeconds < timeoutSeconds) {
      throw new Error(
        `Lambda refuses to consume ${queue.sqsName}: its visibility timeout (${queue.declaration.visibilityTimeoutSeconds} s) is less than the function timeout (${timeoutSeconds} s)`,
      );
    }
    if (
      maxConcurrency !== undefined &&
      (!Number.isInteger(maxConcurrency) || maxConcurrency < MIN_MAX_CONCURRENCY || maxConcurrency > MAX_MAX_CONCURRENCY)
    ) {
      throw new Error(
        `Lambda takes a maximum concurrency of ${MIN_MAX_CONCURRENCY} to ${MAX_MAX_CONCURRENCY} for ${queue.sqsName}, not ${maxConcurrency}`,
      );
    }
    this.consumers.set(queue, {
      batchSize,
      consumer,
      timeoutSeconds,
      maxConcurrency: maxConcurrency ?? Number.POSITIVE_INFINITY,
      running: 0,
      enabled: true,
    });
    this.poll();
  }

  /**
   * Enables or disables a queue's consumer, as UpdateEventSourceMapping's Enabled does: while
   * disabled its messages wait in the queue (deliveries in progress finish); enabling delivers them.
   */
  setEnabled(queue: Queue, enabled: boolean): void {
    const consumed = this.consumers.get(queue);
    if (!consumed) throw new Error(`The local SQS queue ${queue.sqsName} has no consumer`);
    consumed.enabled = enabled;
    this.poll();
  }

  /** Polls on the next turn of the event loop: once for all that happened in this one. */
  poll(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = setImmediate(() => this.pump());
  }

  /** Resolves once no consumed queue has a message deliverable now or a delivery in progress. */
  settled(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.settleWaiters.push(resolve);
      this.checkSettled();
    });
  }

  /** Stops polling and waits for the consumers in progress. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.timer?.cancel();
    this.timer = undefined;
    this.checkSettled();
    await Promise.allSettled([...this.running]);
  }

  private checkSettled() {
    if (!this.stopped && (this.scheduled || this.running.size > 0)) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Delivers everything that can be delivered now, then sets the timer for the next message to show. */
  private pump() {
    this.scheduled = undefined;
    if (this.stopped) return;
    const now = this.clock.now();
    let nextVisible = Number.POSITIVE_INFINITY;
    for (const queue of this.store.queues()) {
      const consumed = this.consumers.get(queue);
      if (!consumed?.enabled) continue;
      // At its maximum concurrency the rest waits in the queue; the end of a delivery polls again.
      while (consumed.running < consumed.maxConcurrency) {
        const batch = this.store.receive(queue, consumed.batchSize, now);
        if (batch.length === 0) break;
        this.deliver(queue, consumed, batch, now);
      }
      nextVisible = Math.min(nextVisible, this.store.nextVisibleAt(queue, now) ?? Number.POSITIVE_INFINITY);
    }
    if (this.timer && this.timer.at !== nextVisible) {
      this.timer.cancel();
      this.timer = undefined;
    }
    if (!this.timer && Number.isFinite(nextVisible)) {
      const cancel = this.clock.after(nextVisible - now, () => {
        this.timer = undefined;
        this.poll();
      });
      this.timer = { at: nextVisible, cancel };
    }
    this.checkSettled();
  }

  private deliver(queue: Queue, consumed: Consumed, receipts: Receipt[], now: number) {
    consumed.running += 1;
    const invocation = (async () => {
      const outcome = await this.invoke(queue, consumed.consumer, consumed.timeoutSeconds, receipts, now);
      const stale = this.store.complete(queue, receipts, outcome.failed, outcome.reason);
      if (stale > 0) {
        this.log(
          `SQS ${queue.sqsName}: the consumer finished after the ${queue.declaration.visibilityTimeoutSeconds} s visibility timeout of ${stale} message(s), ` +
            'which were delivered again meanwhile: its result does not delete them (set the visibility timeout above the consumer timeout)',
        );
      }
    })();
    this.running.add(invocation);
    void invocation.finally(() => {
      consumed.running -= 1;
      this.running.delete(invocation);
      this.poll();
      this.checkSettled();
    });
  }

  /** Runs the consumer on a batch until its timeout; what it failed, and why. Its errors are logged, never thrown. */
  private async invoke(
    queue: Queue,
    consumer: SqsConsumer,
    timeoutSeconds: number,
    receipts: readonly Receipt[],
    now: number,
  ): Promise<Outcome> {
    const { visibilityTimeoutSeconds } = queue.declaration;
    const batch = receipts.map((receipt) => receipt.message);
    try {
      // Lambda stops the function at its timeout and the batch counts as failed; here its code
      // cannot be stopped, but its result no longer counts, as in AWS.
      let cancelTimer: () => void = () => undefined;
      const timedOut = new Promise<'timed-out'>((resolveTimeout) => {
        cancelTimer = this.clock.after(timeoutSeconds * 1000, () => resolveTimeout('timed-out'));
      });
      const context = lambdaContext({
        functionName: `${queue.sqsName.replace(/\.fifo$/, '')}-consumer`,
        deadline: now + timeoutSeconds * 1000,
        region: this.region,
        memoryMb: 512,
        now: () => this.clock.now(),
      });
      const event = { Records: receipts.map((receipt) => recordOf(queue, receipt, this.region)) };
      const result: unknown = await Promise.race([consumer(event, context), timedOut]).finally(() => cancelTimer());
      if (result === 'timed-out') throw new Error(`Task timed out after ${timeoutSeconds} seconds`);
      const outcome = failuresOf(result, batch);
      if (outcome.problem) {
        this.log(
          `SQS ${queue.sqsName}: the consumer's answer is refused, as Lambda refuses it (${outcome.problem}): ` +
            `the whole batch returns to the queue after the ${visibilityTimeoutSeconds} s visibility timeout`,
        );
      }
      return outcome;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log(
        `SQS ${queue.sqsName}: the consumer failed on ${batch.length} message(s) (${batch.map((m) => m.messageId).join(', ')}): ${message}; ` +
          `they return to the queue after the ${visibilityTimeoutSeconds} s visibility timeout`,
      );
      return { failed: new Set(batch), reason: `the consumer threw: ${message}` };
    }
  }
}
