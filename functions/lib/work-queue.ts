import { createHash } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { type QueueName, workQueue } from '../../shared/queues';
import { boundedRequestHandler } from './aws-request-handler';
import { getConfig } from './config';

/**
 * What one message of a work queue carries: its body and, on a FIFO queue (and only there), its
 * group and what makes it unique. A standard queue delivers at least once, in no set order: its
 * consumer makes a second delivery harmless itself.
 */
export interface WorkMessage {
  body: unknown;
  /** FIFO only: messages of one group are delivered one at a time, in order. */
  groupId?: string;
  /** FIFO only: two messages with the same key within five minutes are delivered once (SQS deduplication). */
  deduplicationKey?: string;
}

/** SQS takes at most ten messages per SendMessageBatch. */
const SQS_BATCH_LIMIT = 10;

/** A message that does not fit its queue: a FIFO one without group or key, a standard one with them. */
export class WorkMessageMisfit extends Error {
  override readonly name = 'WorkMessageMisfit';
}

/** A message SQS refused; the rest of the batch was sent. */
export class WorkMessageRefused extends Error {
  override readonly name = 'WorkMessageRefused';
}

let client: SQSClient | undefined;

/** The client, with the SDK loaded by the first send (work-queue-sdk.ts), not at import. */
async function sqs() {
  const sdk = await import('./work-queue-sdk');
  if (!client) {
    const config = getConfig();
    client = new sdk.SQSClient({
      region: config.region,
      ...(config.sqsEndpoint
        ? { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
      maxAttempts: 3,
      requestHandler: boundedRequestHandler(5_000),
    });
  }
  return { client, ...sdk };
}

/** SQS allows 128 characters for a deduplication id: a hash keeps any key within it. */
const deduplicationIdOf = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * Sends messages to a work queue (shared/queues.ts) ten at a time, as SQS takes them. Throws
 * WorkMessageMisfit, before sending anything, for a message that does not fit the queue. Throws
 * WorkMessageRefused naming each message SQS refused, after sending all the others.
 */
export async function sendWorkMessages(queue: QueueName, messages: readonly WorkMessage[]): Promise<void> {
  // Nothing to send (an hourly run with no news): no config to read, no client to build.
  if (messages.length === 0) return;
  const queueUrl = getConfig().queueUrl(queue);
  const { fifo } = workQueue(queue);
  for (const message of messages) {
    const fifoFields = message.groupId !== undefined && message.deduplicationKey !== undefined;
    const noFifoFields = message.groupId === undefined && message.deduplicationKey === undefined;
    if (fifo ? !fifoFields : !noFifoFields) {
      throw new WorkMessageMisfit(
        fifo
          ? `Every message to the FIFO queue ${queue} needs a groupId and a deduplicationKey.`
          : `The standard queue ${queue} takes no groupId or deduplicationKey (SQS refuses a deduplication id there).`,
      );
    }
  }
  const refused: string[] = [];
  for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
    const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
    const { client, SendMessageBatchCommand } = await sqs();
    const result = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((message, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(message.body),
          ...(message.groupId === undefined || message.deduplicationKey === undefined
            ? {}
            : { MessageGroupId: message.groupId, MessageDeduplicationId: deduplicationIdOf(message.deduplicationKey) }),
        })),
      }),
    );
    for (const failure of result.Failed ?? []) {
      const message = batch[Number(failure.Id)];
      refused.push(`${message?.groupId ?? '?'}: ${failure.Code ?? 'refused'} (${failure.Message ?? 'no reason given'})`);
    }
  }
  if (refused.length > 0) throw new WorkMessageRefused(`SQS refused ${refused.length} message(s): ${refused.join('; ')}`);
}

/** A received message's body as JSON, or undefined when it is not JSON: the consumer's schema then refuses it. */
export function messageBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
