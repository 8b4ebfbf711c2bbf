import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalServiceError } from '../dynamodb-local';
import { handleSqsRequest, queueUrl } from './protocol';
import { type LocalDeadLetter, type LocalQueueDeclaration, type SqsClock, SqsStore } from './store';
import { type ConsumerOptions, type SqsConsumer, SqsPoller } from './worker';

export type { LocalDeadLetter, LocalQueueDeclaration, SqsClock, SqsConsumer };

export interface LocalSqsOptions {
  queues: readonly LocalQueueDeclaration[];
  log?: (line: string) => void;
  clock?: SqsClock;
  /** The region of the queue ARNs and of the records' awsRegion ('local' unless told). */
  region?: string;
}

export interface LocalSqs {
  /** http://127.0.0.1:<port>, for SQS_ENDPOINT. */
  endpoint: string;
  /** The queue's URL, shaped like AWS's: `${endpoint}/000000000000/${name}${fifo ? '.fifo' : ''}`. */
  queueUrl(name: string): string;
  /**
   * Lambda's event source mapping: polls the queue and invokes the consumer. Refused, as Lambda
   * refuses it, for a batch size out of range (1 to 10 for FIFO, 1 to 10,000 otherwise) or a
   * queue whose visibility timeout is below the function's timeout (`timeoutSeconds`, default 1).
   */
  consume(name: string, options: ConsumerOptions): void;
  /**
   * Resolves once no queue with a consumer has a message it can deliver now or a delivery in
   * progress. It does not wait for messages hidden by a timer: a failed message waiting for its
   * visibility timeout (an hour for source collection), the messages of its FIFO group behind it,
   * and messages sent with DelaySeconds; they come later, and `deadLetters` lists the ones that
   * run out of receives. Queues nobody consumes are not waited for either.
   */
  settled(): Promise<void>;
  /**
   * Disables (false) or enables a queue's consumer, as UpdateEventSourceMapping's Enabled does:
   * while disabled, what is sent waits in the queue, and `settled` does not wait for it.
   */
  setConsumerEnabled(name: string, enabled: boolean): void;
  /** The bodies of the messages in the queue (waiting or in flight), oldest first. */
  waiting(name: string): readonly string[];
  /** The messages moved to the queue's dead-letter list, oldest first. */
  deadLetters(name: string): readonly LocalDeadLetter[];
  /** Stops polling, waits for the consumers in progress, then closes the server. */
  stop(): Promise<void>;
}

const systemClock: SqsClock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** SQS on this machine (see "The local runtime and AWS" in docs/architecture.md). */
export async function startLocalSqs(options: LocalSqsOptions): Promise<LocalSqs> {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? systemClock;
  const store = new SqsStore(options.queues, clock, log);
  const poller = new SqsPoller(store, clock, options.region ?? 'local', log);

  const server = createServer();
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(0, '127.0.0.1', resolveListen);
    });
  } catch (error) {
    throw new LocalServiceError('SQS emulator', `could not start: ${(error as Error).message}`, { cause: error });
  }
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Only now are the queue URLs known; no request can have come in before this turn ends.
  const api = { store, endpoint, sent: () => poller.poll(), log };
  server.on('request', (request, response) => void handleSqsRequest(api, request, response));

  let stopped = false;
  return {
    endpoint,
    queueUrl: (name) => queueUrl(endpoint, store.queueNamed(name)),
    consume: (name, consumer) => poller.consume(store.queueNamed(name), consumer),
    settled: () => poller.settled(),
    setConsumerEnabled: (name, enabled) => poller.setEnabled(store.queueNamed(name), enabled),
    waiting: (name) => store.queueNamed(name).messages.map((message) => message.body),
    deadLetters: (name) => [...store.queueNamed(name).deadLetters],
    async stop() {
      if (stopped) return;
      stopped = true;
      await poller.stop();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
