import { createHash } from 'node:crypto';
import {
  GetQueueUrlCommand,
  QueueDoesNotExist,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SendMessageCommand,
  type SendMessageCommandInput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalQueueDeclaration, type LocalSqs, type SqsClock, startLocalSqs } from '../../infra/local/sqs';

/** A FIFO queue like source-collection, with a short visibility timeout for the clock to pass. */
const WORK: LocalQueueDeclaration = { name: 'work', fifo: true, visibilityTimeoutSeconds: 60, maxReceiveCount: 3 };
const BY_CONTENT: LocalQueueDeclaration = {
  name: 'by-content',
  fifo: true,
  visibilityTimeoutSeconds: 60,
  maxReceiveCount: 3,
  contentBasedDeduplication: true,
};
const PLAIN: LocalQueueDeclaration = { name: 'plain', fifo: false, visibilityTimeoutSeconds: 60, maxReceiveCount: 3 };

const MIB = 1_048_576;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A clock the test moves: timers fire when it passes their time. */
function manualClock(start = Date.UTC(2026, 0, 5, 9)) {
  let now = start;
  let timers: { at: number; callback: () => void }[] = [];
  return {
    now: () => now,
    after(ms: number, callback: () => void) {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return () => {
        timers = timers.filter((other) => other !== timer);
      };
    },
    advance(ms: number) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.callback();
    },
  };
}

let running: { sqs: LocalSqs; client: SQSClient } | undefined;

afterEach(async () => {
  running?.client.destroy();
  await running?.sqs.stop();
  running = undefined;
});

/** An emulator on the test's clock (or the system's), and an SDK client pointed at it. */
async function start(options: { queues?: LocalQueueDeclaration[]; clock?: SqsClock | 'system' } = {}) {
  const lines: string[] = [];
  const clock = manualClock();
  const sqs = await startLocalSqs({
    queues: options.queues ?? [WORK, BY_CONTENT, PLAIN],
    log: (line) => lines.push(line),
    ...(options.clock === 'system' ? {} : { clock: options.clock ?? clock }),
  });
  const client = new SQSClient({
    region: 'us-east-1',
    endpoint: sqs.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  running = { sqs, client };
  return { sqs, client, clock, lines };
}

type Verdict = 'ok' | 'fail';

/** A consumer that records every batch it is given, and fails the records `answer` fails. */
function recorder(answer: (record: SQSRecord) => Verdict | Promise<Verdict> = () => 'ok') {
  const events: SQSEvent[] = [];
  const consumer = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    events.push(event);
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      if ((await answer(record)) === 'fail') failures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures: failures };
  };
  const bodies = () => events.flatMap((event) => event.Records.map((record) => record.body));
  return { events, consumer, bodies };
}

const fifoEntry = (id: string, group: string, body = `${group}:${id}`): SendMessageBatchRequestEntry => ({
  Id: `${group}-${id}`,
  MessageBody: body,
  MessageGroupId: group,
  MessageDeduplicationId: `${group}-${id}`,
});

async function until(check: () => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolveWait) => setTimeout(resolveWait, 5));
  }
}

/** The error the SDK raised, or a failure if it resolved. */
async function refusal(promise: Promise<unknown>): Promise<Error & { Code?: string; $metadata?: { httpStatusCode?: number } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected SQS to refuse the request');
}

describe('sending with the SDK', () => {
  it("delivers a sent message to the consumer as the record Lambda's SQS event carries", async () => {
    // Prepare
    const { sqs, client, clock } = await start();
    const { events, consumer } = recorder();
    sqs.consume('work', { batchSize: 1, consumer });

    // Act
    const sent = await client.send(
      new SendMessageCommand({
        QueueUrl: sqs.queueUrl('work'),
        MessageBody: '{"host":"a.example"}',
        MessageGroupId: 'a.example',
        MessageDeduplicationId: 'batch-1',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'collect' } },
      }),
    );
    await sqs.settled();

    // Assess
    expect(sqs.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sqs.queueUrl('work')).toBe(`${sqs.endpoint}/000000000000/work.fifo`);
    expect(sent.SequenceNumber).toMatch(/^\d{20}$/);
    expect(sent.MD5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);
    expect(events).toHaveLength(1);
    expect(events[0]?.Records).toEqual([
      {
        messageId: sent.MessageId,
        receiptHandle: expect.any(String),
        body: '{"host":"a.example"}',
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(clock.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(clock.now()),
          SequenceNumber: sent.SequenceNumber,
          MessageGroupId: 'a.example',
          MessageDeduplicationId: 'batch-1',
        },
        messageAttributes: { kind: { stringValue: 'collect', stringListValues: [], binaryListValues: [], dataType: 'String' } },
        md5OfBody: md5('{"host":"a.example"}'),
        md5OfMessageAttributes: sent.MD5OfMessageAttributes,
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:work.fifo',
        awsRegion: 'local',
      },
    ]);
    const found = await client.send(new GetQueueUrlCommand({ QueueName: 'work.fifo' }));
    expect(found.QueueUrl).toBe(sqs.queueUrl('work'));
  });

  it('answers a batch entry by entry: the refused ones in Failed, the others enqueued in order', async () => {
    // Prepare
    const { sqs, client } = await start();
    const { consumer, bodies } = recorder();
    sqs.consume('work', { batchSize: 10, consumer });

    // Act
    const result = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('work'),
        Entries: [
          fifoEntry('first', 'g'),
          { Id: 'no-group', MessageBody: 'x', MessageDeduplicationId: 'no-group' },
          { ...fifoEntry('delayed', 'g'), DelaySeconds: 5 },
          fifoEntry('last', 'g'),
        ],
      }),
    );
    await sqs.settled();

    // Assess
    expect(result.Successful?.map((entry) => entry.Id)).toEqual(['g-first', 'g-last']);
    expect(result.Failed).toEqual([
      {
        Id: 'no-group',
        SenderFault: true,
        Code: 'MissingParameter',
        Message: 'The request must contain the parameter MessageGroupId.',
      },
      {
        Id: 'g-delayed',
        SenderFault: true,
        Code: 'InvalidParameterValue',
        Message:
          'Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.',
      },
    ]);
    expect(bodies()).toEqual(['g:first', 'g:last']);
  });
});

describe('refusing what SQS refuses', () => {
  it('refuses a send SQS refuses, with the error name the SDK gives SQS’s code, and enqueues nothing', async () => {
    // Prepare
    const { sqs, client } = await start();
    const { consumer, bodies } = recorder();
    sqs.consume('work', { batchSize: 10, consumer });
    sqs.consume('plain', { batchSize: 10, consumer });
    const work = (input: Partial<SendMessageCommandInput>) =>
      client.send(
        new SendMessageCommand({
          QueueUrl: sqs.queueUrl('work'),
          MessageBody: 'x',
          MessageGroupId: 'g',
          MessageDeduplicationId: `d-${Math.random()}`,
          ...input,
        }),
      );

    // Act
    const unknownQueue = await refusal(work({ QueueUrl: `${sqs.endpoint}/000000000000/nowhere.fifo` }));
    const noGroup = await refusal(work({ MessageGroupId: undefined }));
    const noDeduplication = await refusal(work({ MessageDeduplicationId: undefined }));
    const tooLong = await refusal(work({ MessageBody: 'x'.repeat(MIB + 1) }));
    const tooLongWithAttribute = await refusal(
      work({ MessageBody: 'x'.repeat(MIB), MessageAttributes: { a: { DataType: 'String', StringValue: 'b' } } }),
    );
    const longGroup = await refusal(work({ MessageGroupId: 'g'.repeat(129) }));
    const spaceInGroup = await refusal(work({ MessageGroupId: 'a group' }));
    const delayed = await refusal(work({ DelaySeconds: 1 }));
    const emptyBody = await refusal(work({ MessageBody: '' }));
    const badCharacter = await refusal(work({ MessageBody: 'nul \u0000' }));
    const standardWithDeduplication = await refusal(
      client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'x', MessageDeduplicationId: 'd' })),
    );
    const fullSize = await work({ MessageBody: 'y'.repeat(MIB), DelaySeconds: 0 });
    await sqs.settled();

    // Assess
    expect(unknownQueue).toBeInstanceOf(QueueDoesNotExist);
    expect(unknownQueue.name).toBe('QueueDoesNotExist');
    expect(unknownQueue.Code).toBe('AWS.SimpleQueueService.NonExistentQueue');
    expect(unknownQueue.$metadata?.httpStatusCode).toBe(400);
    expect([noGroup.name, noGroup.message]).toEqual([
      'MissingParameter',
      'The request must contain the parameter MessageGroupId.',
    ]);
    expect([noDeduplication.name, noDeduplication.message]).toEqual([
      'InvalidParameterValue',
      'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
    ]);
    for (const error of [tooLong, tooLongWithAttribute]) {
      expect([error.name, error.message]).toEqual([
        'InvalidParameterValue',
        'One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.',
      ]);
    }
    for (const error of [longGroup, spaceInGroup, delayed, standardWithDeduplication])
      expect(error.name).toBe('InvalidParameterValue');
    expect(emptyBody.name).toBe('MissingParameter');
    expect(badCharacter.name).toBe('InvalidMessageContents');
    expect(fullSize.MessageId).toBeDefined();
    expect(bodies()).toEqual(['y'.repeat(MIB)]);
  });

  it('refuses a batch SQS refuses as a whole, enqueuing none of it', async () => {
    // Prepare
    const { sqs, client } = await start();
    const { consumer, bodies } = recorder();
    sqs.consume('work', { batchSize: 10, consumer });
    const batch = (Entries: SendMessageBatchRequestEntry[]) =>
      refusal(client.send(new SendMessageBatchCommand({ QueueUrl: sqs.queueUrl('work'), Entries })));
    const eleven = Array.from({ length: 11 }, (_, index) => fifoEntry(`e${index}`, 'g'));
    const half = 'z'.repeat(MIB / 2);

    // Act
    const empty = await batch([]);
    const tooMany = await batch(eleven);
    const sameIds = await batch([fifoEntry('a', 'g'), { ...fifoEntry('b', 'g'), Id: 'g-a' }]);
    const badId = await batch([fifoEntry('a.b', 'g')]);
    const tooLong = await batch([fifoEntry('a', 'g', half), fifoEntry('b', 'g', `${half}!`)]);
    const unknownQueue = await refusal(
      client.send(
        new SendMessageBatchCommand({ QueueUrl: `${sqs.endpoint}/000000000000/nowhere`, Entries: [fifoEntry('a', 'g')] }),
      ),
    );
    await sqs.settled();

    // Assess
    expect([empty.name, tooMany.name, sameIds.name, badId.name, tooLong.name, unknownQueue.name]).toEqual([
      'EmptyBatchRequest',
      'TooManyEntriesInBatchRequest',
      'BatchEntryIdsNotDistinct',
      'InvalidBatchEntryId',
      'BatchRequestTooLong',
      'QueueDoesNotExist',
    ]);
    expect(tooMany.Code).toBe('AWS.SimpleQueueService.TooManyEntriesInBatchRequest');
    expect(tooLong.message).toBe(`Batch requests cannot be longer than ${MIB} bytes. You have sent ${MIB + 1} bytes.`);
    expect(bodies()).toEqual([]);
  });

  it('answers UnsupportedOperation for what only the poller does, and 403 to an unsigned request', async () => {
    // Prepare
    const { sqs, client } = await start();

    // Act
    const receive = await refusal(client.send(new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl('work') })));
    const unsigned = await fetch(sqs.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' },
      body: JSON.stringify({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'x' }),
    });

    // Assess
    expect(receive.name).toBe('UnsupportedOperation');
    expect(receive.message).toContain('local SQS emulator');
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-query-error')).toBe('MissingAuthenticationToken;Sender');
  });

  it('refuses queue declarations SQS refuses and consumers Lambda refuses', async () => {
    // Prepare
    const { sqs } = await start();
    const { consumer } = recorder();

    // Act
    const tooLongTimeout = startLocalSqs({ queues: [{ ...WORK, visibilityTimeoutSeconds: 43_201 }] });
    const badName = startLocalSqs({ queues: [{ ...WORK, name: 'has.dot' }] });
    const contentOnStandard = startLocalSqs({ queues: [{ ...PLAIN, contentBasedDeduplication: true }] });

    // Assess
    await expect(tooLongTimeout).rejects.toThrow(/visibility timeout/);
    await expect(badName).rejects.toThrow(/letters, digits/);
    await expect(contentOnStandard).rejects.toThrow(/FIFO queues only/);
    expect(() => sqs.consume('work', { batchSize: 11, consumer })).toThrow(/batch size of 1 to 10/);
    expect(() => sqs.consume('work', { batchSize: 1, consumer, timeoutSeconds: 61 })).toThrow(/less than the function timeout/);
    expect(() => sqs.consume('nowhere', { batchSize: 1, consumer })).toThrow(/no queue named nowhere/);
    expect(() => sqs.consume('plain', { batchSize: 1, consumer, maxConcurrency: 1 })).toThrow(/maximum concurrency of 2 to 1000/);
  });
});

describe('FIFO delivery', () => {
  it('keeps each group in order and delivers different groups in parallel', async () => {
    // Prepare
    const { sqs, client } = await start();
    const inFlight = new Set<string>();
    let mostAtOnce = 0;
    const overlaps: string[] = [];
    const { consumer, bodies } = recorder(async (record): Promise<Verdict> => {
      const group = record.attributes.MessageGroupId ?? '';
      if (inFlight.has(group)) overlaps.push(group);
      inFlight.add(group);
      mostAtOnce = Math.max(mostAtOnce, inFlight.size);
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
      inFlight.delete(group);
      return 'ok';
    });
    sqs.consume('work', { batchSize: 1, consumer });

    // Act
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('work'),
        Entries: ['1', '2', '3'].flatMap((n) => [fifoEntry(n, 'a'), fifoEntry(n, 'b')]),
      }),
    );
    await sqs.settled();

    // Assess
    expect(bodies().filter((body) => body.startsWith('a'))).toEqual(['a:1', 'a:2', 'a:3']);
    expect(bodies().filter((body) => body.startsWith('b'))).toEqual(['b:1', 'b:2', 'b:3']);
    expect(mostAtOnce).toBe(2);
    expect(overlaps).toEqual([]);
  });

  it('keeps to a maximum concurrency, and holds messages while the consumer is disabled', async () => {
    // Prepare
    const { sqs, client } = await start({ clock: 'system' });
    let inFlight = 0;
    let mostAtOnce = 0;
    const { consumer, bodies } = recorder(async (): Promise<Verdict> => {
      inFlight += 1;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
      inFlight -= 1;
      return 'ok';
    });
    sqs.consume('plain', { batchSize: 1, maxConcurrency: 2, consumer });
    sqs.setConsumerEnabled('plain', false);

    // Act
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('plain'),
        Entries: ['1', '2', '3', '4', '5', '6'].map((n) => ({ Id: n, MessageBody: n })),
      }),
    );
    await sqs.settled();
    const whileDisabled = { delivered: bodies().length, waiting: sqs.waiting('plain').length };
    sqs.setConsumerEnabled('plain', true);
    await sqs.settled();

    // Assess
    expect(whileDisabled).toEqual({ delivered: 0, waiting: 6 });
    expect(bodies().toSorted()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(mostAtOnce).toBe(2);
    expect(sqs.waiting('plain')).toEqual([]);
  });

  it('delivers nothing more of a group while one of its messages is in flight, and lets other groups through', async () => {
    // Prepare
    const { sqs, client } = await start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolveGate) => (release = resolveGate));
    const finished: string[] = [];
    const { consumer, bodies } = recorder(async (record): Promise<Verdict> => {
      if (record.body === 'a:1') await gate;
      finished.push(record.body);
      return 'ok';
    });
    sqs.consume('work', { batchSize: 1, consumer });

    // Act
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('work'),
        Entries: [fifoEntry('1', 'a'), fifoEntry('2', 'a'), fifoEntry('1', 'b')],
      }),
    );
    await until(() => finished.includes('b:1'));
    const whileBlocked = bodies();
    release();
    await sqs.settled();

    // Assess
    expect(whileBlocked).toEqual(['a:1', 'b:1']);
    expect(finished).toEqual(['b:1', 'a:1', 'a:2']);
  });
});

describe('deduplication', () => {
  it('accepts a repeated deduplication id within 5 minutes of the first send without enqueuing it again', async () => {
    // Prepare
    const { sqs, client, clock } = await start();
    const { consumer, bodies } = recorder();
    sqs.consume('work', { batchSize: 1, consumer });
    const send = (body: string) =>
      client.send(
        new SendMessageCommand({
          QueueUrl: sqs.queueUrl('work'),
          MessageBody: body,
          MessageGroupId: 'g',
          MessageDeduplicationId: 'd1',
        }),
      );

    // Act
    const first = await send('first');
    const repeat = await send('second');
    clock.advance(5 * 60_000 - 1_000);
    const justBefore = await send('third');
    clock.advance(1_000);
    const after = await send('fourth');
    await sqs.settled();

    // Assess
    expect([repeat.MessageId, repeat.SequenceNumber]).toEqual([first.MessageId, first.SequenceNumber]);
    expect(repeat.MD5OfMessageBody).toBe(md5('second'));
    expect(justBefore.MessageId).toBe(first.MessageId);
    expect(after.MessageId).not.toBe(first.MessageId);
    expect(BigInt(after.SequenceNumber ?? 0)).toBeGreaterThan(BigInt(first.SequenceNumber ?? 0));
    expect(bodies()).toEqual(['first', 'fourth']);
  });

  it('deduplicates on the body in a queue with content-based deduplication', async () => {
    // Prepare
    const { sqs, client } = await start();
    const { events, consumer, bodies } = recorder();
    sqs.consume('by-content', { batchSize: 10, consumer });
    const send = (body: string) =>
      client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('by-content'), MessageBody: body, MessageGroupId: 'g' }));

    // Act
    const first = await send('same');
    const repeat = await send('same');
    await send('other');
    await sqs.settled();

    // Assess
    expect(repeat.MessageId).toBe(first.MessageId);
    expect(bodies()).toEqual(['same', 'other']);
    expect(events[0]?.Records[0]?.attributes.MessageDeduplicationId).toBe(createHash('sha256').update('same').digest('hex'));
  });
});

describe('failed deliveries', () => {
  it('redelivers only what the consumer lists in batchItemFailures, once the visibility timeout ends', async () => {
    // Prepare: the real clock and a 1 s visibility timeout
    const quick: LocalQueueDeclaration = { name: 'quick', fifo: false, visibilityTimeoutSeconds: 1, maxReceiveCount: 3 };
    const { sqs, client } = await start({ queues: [quick], clock: 'system' });
    const { events, consumer } = recorder((record) =>
      record.body === 'b' && record.attributes.ApproximateReceiveCount === '1' ? 'fail' : 'ok',
    );
    sqs.consume('quick', { batchSize: 3, consumer });
    const started = Date.now();

    // Act
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('quick'),
        Entries: ['a', 'b', 'c'].map((body) => ({ Id: body, MessageBody: body })),
      }),
    );
    await until(() => events.length === 2);
    await sqs.settled();

    // Assess
    expect(events[0]?.Records.map((record) => record.body)).toEqual(['a', 'b', 'c']);
    expect(events[1]?.Records.map((record) => [record.body, record.attributes.ApproximateReceiveCount])).toEqual([['b', '2']]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(events).toHaveLength(2);
  });

  it('stops counting a consumer at its timeout, as Lambda stops it: the batch goes back, and the consumer is told its time', async () => {
    // Prepare: a consumer with a 5 s timeout whose first delivery never ends.
    const { sqs, client, clock, lines } = await start();
    const remaining: number[] = [];
    let deliveries = 0;
    sqs.consume('work', {
      batchSize: 1,
      timeoutSeconds: 5,
      consumer: async (_event, context) => {
        deliveries += 1;
        remaining.push(context.getRemainingTimeInMillis());
        if (deliveries === 1) await new Promise(() => undefined);
      },
    });
    await client.send(new SendMessageBatchCommand({ QueueUrl: sqs.queueUrl('work'), Entries: [fifoEntry('1', 'a', 'slow')] }));
    await until(() => deliveries === 1);

    // Act: past the timeout, then past the visibility timeout.
    clock.advance(5_000);
    await until(() => lines.some((line) => line.includes('Task timed out after 5 seconds')));
    clock.advance(55_000);
    await until(() => deliveries === 2);
    await sqs.settled();

    // Assess
    expect(remaining).toEqual([5_000, 5_000]);
    expect(sqs.deadLetters('work')).toEqual([]);
  });

  it('moves a message to the dead-letter list after maxReceiveCount failed deliveries, saying why, and frees its group', async () => {
    // Prepare
    const { sqs, client, clock, lines } = await start();
    const { consumer, bodies } = recorder((record) => {
      if (record.body === 'poison') throw new Error('poisoned batch');
      return 'ok';
    });
    sqs.consume('work', { batchSize: 1, consumer });
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('work'),
        Entries: [fifoEntry('1', 'a', 'poison'), fifoEntry('2', 'a', 'after poison'), fifoEntry('1', 'b', 'other group')],
      }),
    );
    await sqs.settled();
    const afterFirstFailure = bodies();

    // Act
    for (let receive = 2; receive <= 4; receive += 1) {
      clock.advance(60_000);
      await sqs.settled();
    }

    // Assess
    expect(afterFirstFailure).toEqual(['poison', 'other group']);
    expect(bodies()).toEqual(['poison', 'other group', 'poison', 'poison', 'after poison']);
    expect(sqs.deadLetters('work')).toEqual([
      {
        messageId: expect.any(String),
        body: 'poison',
        groupId: 'a',
        receiveCount: 3,
        reason: 'the consumer threw: poisoned batch',
      },
    ]);
    expect(lines.filter((line) => line.includes('dead-letter'))).toEqual([
      expect.stringMatching(
        /^SQS work\.fifo: message \S+ \(group a\) moved to the dead-letter queue after 3 receives \(maxReceiveCount 3\).*poisoned batch$/,
      ),
    ]);
  });

  it('goes on delivering after a consumer throws, logging the error instead of letting it out', async () => {
    // Prepare
    const { sqs, client, lines } = await start();
    const delivered: string[] = [];
    let calls = 0;
    sqs.consume('plain', {
      batchSize: 1,
      // Throws before returning a promise, as a careless handler may.
      consumer: (event) => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        delivered.push(...event.Records.map((record) => record.body));
        return Promise.resolve();
      },
    });

    // Act
    await client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'first' }));
    await sqs.settled();
    await client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'second' }));
    await sqs.settled();

    // Assess
    expect(delivered).toEqual(['second']);
    expect(lines).toContainEqual(
      expect.stringMatching(/^SQS plain: the consumer failed on 1 message\(s\) .*: boom; they return/),
    );
  });

  it('treats an answer naming a message that is not in the batch as a failure of the whole batch', async () => {
    // Prepare
    const { sqs, client, clock, lines } = await start();
    const events: SQSEvent[] = [];
    sqs.consume('plain', {
      batchSize: 2,
      consumer: async (event) => {
        events.push(event);
        return events.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] } : undefined;
      },
    });
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: sqs.queueUrl('plain'),
        Entries: [
          { Id: 'a', MessageBody: 'a' },
          { Id: 'b', MessageBody: 'b' },
        ],
      }),
    );
    await sqs.settled();

    // Act
    clock.advance(60_000);
    await sqs.settled();
    clock.advance(60_000);
    await sqs.settled();

    // Assess
    expect(events.map((event) => event.Records.map((record) => record.body))).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(lines).toContainEqual(expect.stringContaining('"not-in-batch", which is not a message of the batch'));
  });
});

describe('stopping', () => {
  it('waits for the consumers in progress, then closes its port', async () => {
    // Prepare
    const { sqs, client } = await start();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolveGate) => (release = resolveGate));
    let invoked = false;
    let finished = false;
    sqs.consume('plain', {
      batchSize: 1,
      consumer: async () => {
        invoked = true;
        await gate;
        finished = true;
      },
    });
    await client.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'slow' }));
    await until(() => invoked);

    // Act
    const stopping = sqs.stop();
    setTimeout(release, 20);
    await stopping;

    // Assess
    expect(finished).toBe(true);
    // A new connection: the client's pooled one was closed with the server.
    const late = new SQSClient({
      region: 'us-east-1',
      endpoint: sqs.endpoint,
      maxAttempts: 1,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await expect(late.send(new SendMessageCommand({ QueueUrl: sqs.queueUrl('plain'), MessageBody: 'late' }))).rejects.toThrow(
      /ECONNREFUSED/,
    );
    late.destroy();
  });
});
