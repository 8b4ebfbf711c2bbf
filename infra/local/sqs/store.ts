import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { LocalServiceError } from '../dynamodb-local';

/** One queue as the runtime declares it (from shared/queues.ts). */
export interface LocalQueueDeclaration {
  /** Without `.fifo`: a FIFO queue's SQS name, URL and ARN add it. */
  name: string;
  fifo: boolean;
  /** 0 to 43,200 s, as SQS allows; a queue with a consumer needs at least the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  /** 1 to 1,000: the receives after which a message moves to the dead-letter list. */
  maxReceiveCount: number;
  /** FIFO only: a send without MessageDeduplicationId is deduplicated on the SHA-256 of its body. */
  contentBasedDeduplication?: boolean;
  /** 60 s to 14 days (4 days by default): an older message is deleted unread. */
  retentionSeconds?: number;
}

/** A message that failed `maxReceiveCount` deliveries. */
export interface LocalDeadLetter {
  messageId: string;
  body: string;
  groupId?: string;
  receiveCount: number;
  /** Why its last delivery failed. */
  reason: string;
}

/** Time, for the visibility timeouts, delays, retention and the deduplication interval; tests pass their own. */
export interface SqsClock {
  now(): number;
  /** Calls `callback` once `ms` have passed on this clock; the function returned cancels it. */
  after(ms: number, callback: () => void): () => void;
}

export interface StoredAttribute {
  dataType: string;
  stringValue?: string;
  binaryValue?: Buffer;
}

/** A message as the protocol validated it, before it is enqueued. */
export interface Outgoing {
  body: string;
  attributes: Record<string, StoredAttribute>;
  bytes: number;
  delaySeconds: number;
  groupId?: string;
  deduplicationId?: string;
  traceHeader?: string;
}

export interface StoredMessage {
  messageId: string;
  body: string;
  attributes: Record<string, StoredAttribute>;
  groupId: string | undefined;
  deduplicationId: string | undefined;
  sequenceNumber: string | undefined;
  traceHeader: string | undefined;
  senderId: string;
  sentAt: number;
  firstReceivedAt: number | undefined;
  receiveCount: number;
  /** Hidden until then: delayed, or received (in flight, or failed and waiting for its visibility timeout). */
  visibleAt: number;
  /** The handle of the latest receive: only that delivery's result may delete it. */
  receiptHandle: string | undefined;
  lastFailure: string | undefined;
}

export interface Queue {
  declaration: LocalQueueDeclaration;
  /** The name SQS knows it by (with `.fifo`). */
  sqsName: string;
  messages: StoredMessage[];
  /** FIFO: the deduplication ids of the last 5 minutes, with what their first send was answered. */
  deduplication: Map<string, { sentAt: number; messageId: string; sequenceNumber: string }>;
  deadLetters: LocalDeadLetter[];
}

/** A received message and the handle of that receive. */
export interface Receipt {
  message: StoredMessage;
  handle: string;
}

const QUEUE_NAME = /^[A-Za-z0-9_-]+$/;
const MAX_QUEUE_NAME_LENGTH = 80;
const MAX_VISIBILITY_TIMEOUT_SECONDS = 43_200;
const DEDUPLICATION_INTERVAL_MS = 5 * 60_000;
const DEFAULT_RETENTION_SECONDS = 345_600;

function validateDeclaration(declaration: LocalQueueDeclaration): void {
  const problem = (message: string) => new LocalServiceError('SQS emulator', `queue ${declaration.name}: ${message}`);
  const sqsName = `${declaration.name}${declaration.fifo ? '.fifo' : ''}`;
  if (!QUEUE_NAME.test(declaration.name) || sqsName.length > MAX_QUEUE_NAME_LENGTH) {
    throw problem(`SQS takes 1 to 80 letters, digits, hyphens and underscores (with .fifo, for a FIFO queue)`);
  }
  const { visibilityTimeoutSeconds, maxReceiveCount, retentionSeconds } = declaration;
  if (
    !Number.isInteger(visibilityTimeoutSeconds) ||
    visibilityTimeoutSeconds < 0 ||
    visibilityTimeoutSeconds > MAX_VISIBILITY_TIMEOUT_SECONDS
  ) {
    throw problem(`the visibility timeout must be 0 to ${MAX_VISIBILITY_TIMEOUT_SECONDS} seconds`);
  }
  if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1 || maxReceiveCount > 1_000) {
    throw problem('maxReceiveCount must be 1 to 1,000');
  }
  if (
    retentionSeconds !== undefined &&
    (!Number.isInteger(retentionSeconds) || retentionSeconds < 60 || retentionSeconds > 1_209_600)
  ) {
    throw problem('the retention period must be 60 to 1,209,600 seconds');
  }
  if (declaration.contentBasedDeduplication && !declaration.fifo) {
    throw problem('content-based deduplication is for FIFO queues only');
  }
}

/**
 * The queues and their messages, in memory: what SQS keeps, and its rules for what a receive
 * may take (visibility, FIFO groups, retention, deduplication, the dead-letter redrive).
 */
export class SqsStore {
  private readonly byName = new Map<string, Queue>();
  private readonly bySqsName = new Map<string, Queue>();
  private sequence = 0n;

  constructor(
    declarations: readonly LocalQueueDeclaration[],
    private readonly clock: Pick<SqsClock, 'now'>,
    private readonly log: (line: string) => void,
  ) {
    for (const declaration of declarations) {
      validateDeclaration(declaration);
      if (this.byName.has(declaration.name)) {
        throw new LocalServiceError('SQS emulator', `queue ${declaration.name} is declared twice`);
      }
      const sqsName = `${declaration.name}${declaration.fifo ? '.fifo' : ''}`;
      const queue: Queue = { declaration, sqsName, messages: [], deduplication: new Map(), deadLetters: [] };
      this.byName.set(declaration.name, queue);
      this.bySqsName.set(sqsName, queue);
    }
  }

  queues(): Iterable<Queue> {
    return this.byName.values();
  }

  /** The queue as the runtime names it; a name nobody declared is the runtime's mistake. */
  queueNamed(name: string): Queue {
    const queue = this.byName.get(name);
    if (!queue) throw new Error(`The local SQS has no queue named ${name} (declared: ${[...this.byName.keys()].join(', ')})`);
    return queue;
  }

  /** The queue as SQS names it (with `.fifo`), for a request. */
  queueOfSqsName(sqsName: string): Queue | undefined {
    return this.bySqsName.get(sqsName);
  }

  /** Enqueues a message; a FIFO queue answers a deduplication id seen within 5 minutes with its first send instead. */
  enqueue(queue: Queue, outgoing: Outgoing, senderId: string): { messageId: string; sequenceNumber?: string } {
    const now = this.clock.now();
    let deduplicationId: string | undefined;
    let sequenceNumber: string | undefined;
    if (queue.declaration.fifo) {
      deduplicationId = outgoing.deduplicationId ?? createHash('sha256').update(outgoing.body).digest('hex');
      for (const [id, seen] of queue.deduplication) {
        if (now - seen.sentAt >= DEDUPLICATION_INTERVAL_MS) queue.deduplication.delete(id);
      }
      const first = queue.deduplication.get(deduplicationId);
      // A duplicate does not extend the interval.
      if (first) return { messageId: first.messageId, sequenceNumber: first.sequenceNumber };
      this.sequence += 1n;
      sequenceNumber = (10n ** 19n + this.sequence).toString();
    }
    const message: StoredMessage = {
      messageId: randomUUID(),
      body: outgoing.body,
      attributes: outgoing.attributes,
      groupId: outgoing.groupId,
      deduplicationId,
      sequenceNumber,
      traceHeader: outgoing.traceHeader,
      senderId,
      sentAt: now,
      firstReceivedAt: undefined,
      receiveCount: 0,
      visibleAt: now + outgoing.delaySeconds * 1000,
      receiptHandle: undefined,
      lastFailure: undefined,
    };
    queue.messages.push(message);
    if (deduplicationId && sequenceNumber) {
      queue.deduplication.set(deduplicationId, { sentAt: now, messageId: message.messageId, sequenceNumber });
    }
    return { messageId: message.messageId, ...(sequenceNumber ? { sequenceNumber } : {}) };
  }

  /**
   * Receives up to `max` visible messages, hiding them for the visibility timeout from `now`;
   * on the way, deletes what outlived the retention period and moves what ran out of receives
   * to the dead-letter list, as SQS does on a receive.
   */
  receive(queue: Queue, max: number, now: number): Receipt[] {
    const { fifo, maxReceiveCount, visibilityTimeoutSeconds } = queue.declaration;
    // A group with a hidden message (in flight, or failed and not visible yet) delivers nothing else.
    const lockedGroups = new Set<string | undefined>();
    if (fifo) for (const message of queue.messages) if (message.visibleAt > now) lockedGroups.add(message.groupId);
    const batch: StoredMessage[] = [];
    for (const message of [...queue.messages]) {
      if (batch.length >= max) break;
      if (message.visibleAt > now || (fifo && lockedGroups.has(message.groupId))) continue;
      if (now - message.sentAt >= (queue.declaration.retentionSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000) {
        this.remove(queue, message);
        this.log(`SQS ${queue.sqsName}: message ${message.messageId} deleted unread after the queue's retention period`);
        continue;
      }
      if (message.receiveCount >= maxReceiveCount) {
        this.moveToDeadLetters(queue, message);
        continue;
      }
      batch.push(message);
    }
    return batch.map((message) => {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + visibilityTimeoutSeconds * 1000;
      message.receiptHandle = randomBytes(48).toString('base64');
      return { message, handle: message.receiptHandle };
    });
  }

  /**
   * A delivery's result: deletes its messages but the `failed` ones, which keep `reason` until
   * their visibility timeout ends. Answers how many receipts were stale: received again since
   * (their visibility timeout ended first) or already gone, which this result no longer touches.
   */
  complete(queue: Queue, receipts: readonly Receipt[], failed: ReadonlySet<StoredMessage>, reason: string): number {
    let stale = 0;
    for (const { message, handle } of receipts) {
      if (message.receiptHandle !== handle || !queue.messages.includes(message)) {
        stale += 1;
        continue;
      }
      if (failed.has(message)) message.lastFailure = reason;
      else this.remove(queue, message);
    }
    return stale;
  }

  /** When the queue's first hidden message shows again, if it has one. */
  nextVisibleAt(queue: Queue, now: number): number | undefined {
    let next: number | undefined;
    for (const message of queue.messages) {
      if (message.visibleAt > now && (next === undefined || message.visibleAt < next)) next = message.visibleAt;
    }
    return next;
  }

  private remove(queue: Queue, message: StoredMessage) {
    const index = queue.messages.indexOf(message);
    if (index >= 0) queue.messages.splice(index, 1);
  }

  private moveToDeadLetters(queue: Queue, message: StoredMessage) {
    this.remove(queue, message);
    const reason = message.lastFailure ?? 'its visibility timeout ended before it was deleted';
    queue.deadLetters.push({
      messageId: message.messageId,
      body: message.body,
      ...(message.groupId === undefined ? {} : { groupId: message.groupId }),
      receiveCount: message.receiveCount,
      reason,
    });
    this.log(
      `SQS ${queue.sqsName}: message ${message.messageId}${message.groupId === undefined ? '' : ` (group ${message.groupId})`} ` +
        `moved to the dead-letter queue after ${message.receiveCount} receives (maxReceiveCount ${queue.declaration.maxReceiveCount}); ` +
        `its last delivery failed: ${reason}`,
    );
  }
}
