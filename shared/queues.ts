import { type Capabilities, capabilitiesOf } from './capabilities';

/**
 * Work queues, described once: SQS queues with a Lambda consumer in AWS (CDK), the local SQS
 * emulator and its poller in the local runtime. A function sends to a queue only when its
 * capabilities name it (`queues`); it then gets the queue's URL in `urlVariable`.
 */
export interface WorkQueue {
  name: QueueName;
  /** FIFO: messages of one group are delivered one at a time, in order (one group per host). */
  fifo: boolean;
  /** The environment variable that holds the queue's URL, in the functions that send to it. */
  urlVariable: string;
  description: string;
  /** How long a received message stays hidden from other consumers; at least 6 times the consumer's timeout, as AWS advises. */
  visibilityTimeoutSeconds: number;
  /** Deliveries before a message that keeps failing moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
  retentionSeconds: number;
  consumer: {
    name: string;
    /** The file under functions/ that exports `handler(event: SQSEvent)`. */
    handler: string;
    /** Messages per invocation. */
    batchSize: number;
    /**
     * At most this many invocations at once (the event source's maximum concurrency, 2 to 1,000):
     * what the table and the mailer take from one queue while the rest of the product runs.
     * Unset: as many as Lambda scales to.
     */
    maxConcurrency?: number;
    timeoutSeconds: number;
    capabilities: Capabilities;
  };
}

export const QUEUE_NAMES = ['source-collection', 'notification-fanout', 'publication-digest'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Seconds a collection batch may run: a host's 50 sources at one request a second and then some. */
const COLLECT_SOURCES_TIMEOUT_SECONDS = 600;
/** Seconds a fan-out batch may run: ten pages of 100 recipients take a few seconds; a slow table gets the rest. */
const FAN_OUT_TIMEOUT_SECONDS = 120;
/** Seconds a digest batch may run: ten pages of 100 readers, a Query and a mail for each who wants it. */
const DIGEST_TIMEOUT_SECONDS = 180;

export const WORK_QUEUES: readonly WorkQueue[] = [
  {
    name: 'source-collection',
    fifo: true,
    urlVariable: 'SOURCE_COLLECTION_QUEUE_URL',
    description:
      "Batches of publication sources to collect, one message group per host: a host's batches are read one after another, never two at once.",
    visibilityTimeoutSeconds: COLLECT_SOURCES_TIMEOUT_SECONDS * 6,
    maxReceiveCount: 3,
    retentionSeconds: 2 * 24 * 3600,
    consumer: {
      name: 'collect-sources',
      handler: 'ranking/collect-sources',
      batchSize: 1,
      timeoutSeconds: COLLECT_SOURCES_TIMEOUT_SECONDS,
      // It sends what a run could not reach to the back of its host's group.
      capabilities: capabilitiesOf({ queues: ['source-collection'] }, { table: 'read-write' }),
    },
  },
  {
    name: 'notification-fanout',
    fifo: false,
    urlVariable: 'NOTIFICATION_FANOUT_QUEUE_URL',
    description:
      'One event that tells many people (a followed publication rose), then pages of its recipients: the consumer writes, pushes and mails each page, so the job that found the news never waits on how many follow it.',
    visibilityTimeoutSeconds: FAN_OUT_TIMEOUT_SECONDS * 6,
    maxReceiveCount: 5,
    // The news is about the last hour: kept a day, and what cannot be delivered by then is stale.
    retentionSeconds: 24 * 3600,
    consumer: {
      name: 'fan-out-notifications',
      handler: 'notifications/fan-out-notifications',
      batchSize: 10,
      // Four at a time: each writes 33 recipients per transaction; more would crowd out the
      // routes' writes to the same table (and DynamoDB Local's two cores here) for no earlier bell.
      maxConcurrency: 4,
      timeoutSeconds: FAN_OUT_TIMEOUT_SECONDS,
      // It sends an event's next pages to its own queue; it pushes the new unseen counts to open
      // tabs and mails those who want notification emails.
      capabilities: capabilitiesOf({ queues: ['notification-fanout'], realtime: true, email: true }, { table: 'read-write' }),
    },
  },
  {
    name: 'publication-digest',
    fifo: false,
    urlVariable: 'PUBLICATION_DIGEST_QUEUE_URL',
    description:
      "The weekly digest's readers, 100 ids a page: the consumer mails each who has the digest on the week of what they follow, so the weekly job only reads who follows what.",
    visibilityTimeoutSeconds: DIGEST_TIMEOUT_SECONDS * 6,
    maxReceiveCount: 5,
    // A week's digest: what is not delivered within two days is not worth sending.
    retentionSeconds: 2 * 24 * 3600,
    consumer: {
      name: 'send-digest-pages',
      handler: 'ranking/send-digest-pages',
      batchSize: 10,
      // Two at a time, each mailing eight readers at once: about what SES's usual sending rate
      // (tens of mails a second) takes, and a week's digest has no hurry.
      maxConcurrency: 2,
      timeoutSeconds: DIGEST_TIMEOUT_SECONDS,
      // It reads the readers, their follows and publications and the boards; it writes the
      // mailer's limits and cooldowns and mails.
      capabilities: capabilitiesOf({ email: true }, { table: 'read-write' }),
    },
  },
];

export function workQueue(name: QueueName): WorkQueue {
  const queue = WORK_QUEUES.find((candidate) => candidate.name === name);
  if (!queue) throw new Error(`No work queue is named ${name}`);
  return queue;
}
