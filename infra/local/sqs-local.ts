import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { LocalServiceError } from './dynamodb-local';
import { lambdaContext } from './lambda-context';

/**
 * SQS on this machine: the work queues of shared/queues.ts and, standing in for Lambda's event
 * source mapping, the poller that hands their messages to the consumers.
 *
 * Functions send with @aws-sdk/client-sqs (SQS_ENDPOINT), which speaks AWS's JSON 1.0 protocol:
 * the emulator answers SendMessage, SendMessageBatch and GetQueueUrl, validates them as SQS does
 * and refuses what SQS refuses with SQS's error codes (the SDK raises them as QueueDoesNotExist,
 * TooManyEntriesInBatchRequest... or, for codes SQS does not model, as SQSServiceException named
 * MissingParameter, InvalidParameterValue...). Any other SQS operation is answered
 * UnsupportedOperation: nothing here receives messages but the poller.
 *
 * Messages live in memory: a local queue starts empty at each start, and whatever was still
 * waiting when the runtime stops is gone. The limits are AWS's as of 2026: a message (body and
 * attributes) and a whole batch of at most 1 MiB (raised from 256 KiB in 2025, and 1 MiB is
 * also the default MaximumMessageSize), 10 entries per batch, group and deduplication ids of 1
 * to 128 letters, digits and punctuation, and a 5-minute deduplication interval.
 *
 * What the poller does, as Lambda's SQS event source mapping with ReportBatchItemFailures:
 * - it delivers each visible message at once, in batches of at most `batchSize`, as many
 *   invocations at a time as there are batches to deliver; a received message stays hidden for
 *   the queue's visibility timeout, counted from the receive;
 * - FIFO: while a message of a group is hidden (in flight, or failed and waiting for its
 *   visibility timeout), nothing else of that group is delivered; a group's messages come in
 *   the order they were sent; other groups go on in parallel;
 * - a consumer that resolves has its batch deleted, except the messages it names in
 *   `batchItemFailures`; one that throws, or names a message that is not in the batch or an
 *   empty identifier, gets the whole batch back (Lambda treats those as complete failures);
 *   failed messages come back once their visibility timeout ends;
 * - when the poller finds a visible message already received `maxReceiveCount` times, it moves
 *   it to the queue's dead-letter list instead of delivering it (SQS moves it on that receive,
 *   so a message's dead-lettering waits for the visibility timeout after its last failure) and
 *   logs why;
 * - a consumer still running when its messages' visibility timeout ends sees them delivered
 *   again, as SQS would, and its late result no longer deletes them (their receipt handle is
 *   stale); a consumer's error never escapes the emulator: it is logged.
 */

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

export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

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
  consume(name: string, options: { batchSize: number; consumer: SqsConsumer; timeoutSeconds?: number }): void;
  /**
   * Resolves once no queue with a consumer has a message it can deliver now or a delivery in
   * progress. It does not wait for messages hidden by a timer: a failed message waiting for its
   * visibility timeout (an hour for source collection), the messages of its FIFO group behind it,
   * and messages sent with DelaySeconds; they come later, and `deadLetters` lists the ones that
   * run out of receives. Queues nobody consumes are not waited for either.
   */
  settled(): Promise<void>;
  /** The messages moved to the queue's dead-letter list, oldest first. */
  deadLetters(name: string): readonly LocalDeadLetter[];
  /** Stops polling, waits for the consumers in progress, then closes the server. */
  stop(): Promise<void>;
}

/** SQS's limits (SQS API reference, 2026). */
const MAX_MESSAGE_BYTES = 1_048_576;
const MAX_BATCH_BYTES = 1_048_576;
const MAX_BATCH_ENTRIES = 10;
const MAX_MESSAGE_ATTRIBUTES = 10;
const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_TIMEOUT_SECONDS = 43_200;
const DEDUPLICATION_INTERVAL_MS = 5 * 60_000;
const DEFAULT_RETENTION_SECONDS = 345_600;
/** Lambda: at most 10 records per batch from a FIFO queue, 10,000 from a standard one. */
const MAX_FIFO_BATCH_SIZE = 10;
const MAX_STANDARD_BATCH_SIZE = 10_000;
const ACCOUNT_ID = '000000000000';
/** More than any valid request, even a 1 MiB batch whose every character JSON escapes as \uXXXX. */
const MAX_REQUEST_BYTES = 8 * 1_048_576;

const QUEUE_NAME = /^[A-Za-z0-9_-]+$/;
const MAX_QUEUE_NAME_LENGTH = 80;
/** MessageGroupId and MessageDeduplicationId: alphanumeric and punctuation, 1 to 128 characters. */
const GROUP_OR_DEDUPLICATION_ID = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]{1,128}$/;
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
/** Outside #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF (lone surrogates included). */
const INVALID_BODY_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,256}$/;
const ATTRIBUTE_TYPE = /^(String|Number|Binary)(\..+)?$/;
const NUMBER_VALUE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const SQS_OPERATIONS = new Set([
  'AddPermission',
  'CancelMessageMoveTask',
  'ChangeMessageVisibility',
  'ChangeMessageVisibilityBatch',
  'CreateQueue',
  'DeleteMessage',
  'DeleteMessageBatch',
  'DeleteQueue',
  'GetQueueAttributes',
  'GetQueueUrl',
  'ListDeadLetterSourceQueues',
  'ListMessageMoveTasks',
  'ListQueueTags',
  'ListQueues',
  'PurgeQueue',
  'ReceiveMessage',
  'RemovePermission',
  'SendMessage',
  'SendMessageBatch',
  'SetQueueAttributes',
  'StartMessageMoveTask',
  'TagQueue',
  'UntagQueue',
]);

/** An answer SQS would give instead of a result: its HTTP status, `__type` and query-compatible code. */
class SqsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const refuse = {
  nonExistentQueue: () =>
    new SqsError(
      400,
      'com.amazonaws.sqs#QueueDoesNotExist',
      'AWS.SimpleQueueService.NonExistentQueue',
      'The specified queue does not exist.',
    ),
  missingParameter: (name: string) =>
    new SqsError(
      400,
      'com.amazon.coral.service#MissingRequiredParameterException',
      'MissingParameter',
      `The request must contain the parameter ${name}.`,
    ),
  invalidParameterValue: (message: string) =>
    new SqsError(400, 'com.amazon.coral.service#InvalidParameterValueException', 'InvalidParameterValue', message),
  invalidValue: (parameter: string, value: unknown, reason: string) =>
    refuse.invalidParameterValue(`Value ${String(value)} for parameter ${parameter} is invalid. Reason: ${reason}`),
  invalidMessageContents: () =>
    new SqsError(
      400,
      'com.amazonaws.sqs#InvalidMessageContents',
      'InvalidMessageContents',
      'Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF',
    ),
  batch: (name: string, message: string) =>
    new SqsError(400, `com.amazonaws.sqs#${name}`, `AWS.SimpleQueueService.${name}`, message),
  malformed: (message: string) => new SqsError(400, 'com.amazon.coral.service#SerializationException', 'MalformedInput', message),
  unknownOperation: () =>
    new SqsError(
      400,
      'com.amazon.coral.service#UnknownOperationException',
      'InvalidAction',
      'The action or operation requested is invalid.',
    ),
  unsupportedOperation: (operation: string) =>
    new SqsError(
      400,
      'com.amazonaws.sqs#UnsupportedOperation',
      'AWS.SimpleQueueService.UnsupportedOperation',
      `${operation} is not available in the local SQS emulator: it answers SendMessage, SendMessageBatch and GetQueueUrl, and its poller stands in for the Lambda consumers.`,
    ),
  missingAuthentication: () =>
    new SqsError(
      403,
      'com.amazon.coral.service#MissingAuthenticationTokenException',
      'MissingAuthenticationToken',
      'Request is missing Authentication Token',
    ),
};

interface StoredAttribute {
  dataType: string;
  stringValue?: string;
  binaryValue?: Buffer;
}

/** A message as validated, before it is enqueued. */
interface Outgoing {
  body: string;
  attributes: Record<string, StoredAttribute>;
  bytes: number;
  delaySeconds: number;
  groupId?: string;
  deduplicationId?: string;
  traceHeader?: string;
}

interface StoredMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  attributes: Record<string, StoredAttribute>;
  md5OfAttributes: string | undefined;
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

/** What a delivery's result means: the messages it failed (the rest are deleted), why, and what was wrong with the answer. */
interface Outcome {
  failed: Set<StoredMessage>;
  reason: string;
  problem?: string;
}

interface Queue {
  declaration: LocalQueueDeclaration;
  /** The name SQS knows it by (with `.fifo`). */
  sqsName: string;
  url: string;
  arn: string;
  messages: StoredMessage[];
  /** FIFO: the deduplication ids of the last 5 minutes, with what their first send was answered. */
  deduplication: Map<string, { sentAt: number; messageId: string; sequenceNumber: string }>;
  consumer: { batchSize: number; consumer: SqsConsumer; timeoutSeconds: number } | undefined;
  deadLetters: LocalDeadLetter[];
}

const systemClock: SqsClock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

const md5 = (bytes: string | Buffer) => createHash('md5').update(bytes).digest('hex');
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The checksum SQS answers for message (or system) attributes: each, by name, length-prefixed. */
function md5OfAttributes(attributes: Record<string, StoredAttribute>): string | undefined {
  const names = Object.keys(attributes).sort();
  if (names.length === 0) return undefined;
  const hash = createHash('md5');
  const lengthPrefixed = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  };
  for (const name of names) {
    const attribute = attributes[name] as StoredAttribute;
    lengthPrefixed(Buffer.from(name, 'utf8'));
    lengthPrefixed(Buffer.from(attribute.dataType, 'utf8'));
    if (attribute.binaryValue) {
      hash.update(Buffer.from([2]));
      lengthPrefixed(attribute.binaryValue);
    } else {
      hash.update(Buffer.from([1]));
      lengthPrefixed(Buffer.from(attribute.stringValue ?? '', 'utf8'));
    }
  }
  return hash.digest('hex');
}

/** MessageAttributes as SQS validates them; their names, types and values count towards the message size. */
function parseMessageAttributes(raw: unknown): { attributes: Record<string, StoredAttribute>; bytes: number } {
  if (raw === undefined || raw === null) return { attributes: {}, bytes: 0 };
  if (!isRecord(raw)) throw refuse.malformed('MessageAttributes must be a map.');
  const names = Object.keys(raw);
  if (names.length > MAX_MESSAGE_ATTRIBUTES) {
    throw refuse.invalidParameterValue(
      `Number of message attributes [${names.length}] exceeds the allowed maximum [${MAX_MESSAGE_ATTRIBUTES}].`,
    );
  }
  const attributes: Record<string, StoredAttribute> = {};
  let bytes = 0;
  for (const name of names) {
    const lower = name.toLowerCase();
    if (
      !ATTRIBUTE_NAME.test(name) ||
      name.startsWith('.') ||
      name.endsWith('.') ||
      name.includes('..') ||
      lower.startsWith('aws.') ||
      lower.startsWith('amazon.')
    ) {
      throw refuse.invalidParameterValue(
        `Message (user) attribute name '${name}' is invalid: up to 256 letters, digits, hyphens, underscores and periods, not starting with AWS. or Amazon., without leading, trailing or repeated periods.`,
      );
    }
    const value = raw[name];
    if (!isRecord(value)) throw refuse.malformed(`Message attribute '${name}' must be a structure.`);
    const { DataType, StringValue, BinaryValue, StringListValues, BinaryListValues } = value;
    if (typeof DataType !== 'string' || DataType === '') {
      throw refuse.invalidParameterValue(`The message attribute '${name}' must contain a non-empty message attribute type.`);
    }
    const type = ATTRIBUTE_TYPE.exec(DataType)?.[1];
    if (!type || DataType.length > 256) {
      throw refuse.invalidParameterValue(
        `The type of message (user) attribute '${name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String.`,
      );
    }
    if (StringListValues !== undefined || BinaryListValues !== undefined) {
      throw refuse.invalidParameterValue(`Message attribute '${name}': list values are not supported.`);
    }
    let attribute: StoredAttribute;
    if (type === 'Binary') {
      if (typeof BinaryValue !== 'string' || BinaryValue === '') {
        throw refuse.invalidParameterValue(`The message attribute '${name}' must contain a non-empty message attribute value.`);
      }
      if (StringValue !== undefined) {
        throw refuse.invalidParameterValue(`The message attribute '${name}' with type 'Binary' must use field 'Binary'.`);
      }
      attribute = { dataType: DataType, binaryValue: Buffer.from(BinaryValue, 'base64') };
    } else {
      if (typeof StringValue !== 'string' || StringValue === '') {
        throw refuse.invalidParameterValue(`The message attribute '${name}' must contain a non-empty message attribute value.`);
      }
      if (BinaryValue !== undefined) {
        throw refuse.invalidParameterValue(`The message attribute '${name}' with type '${type}' must use field 'String'.`);
      }
      if (INVALID_BODY_CHARACTER.test(StringValue)) throw refuse.invalidMessageContents();
      if (type === 'Number' && !NUMBER_VALUE.test(StringValue)) {
        throw refuse.invalidParameterValue(`Can't cast the value of message (user) attribute '${name}' to a number.`);
      }
      attribute = { dataType: DataType, stringValue: StringValue };
    }
    attributes[name] = attribute;
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(DataType) +
      (attribute.binaryValue ? attribute.binaryValue.length : Buffer.byteLength(attribute.stringValue ?? ''));
  }
  return { attributes, bytes };
}

/** MessageSystemAttributes: SQS takes AWSTraceHeader alone, a String (its size does not count). */
function parseTraceHeader(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw refuse.malformed('MessageSystemAttributes must be a map.');
  let traceHeader: string | undefined;
  for (const [name, value] of Object.entries(raw)) {
    if (name !== 'AWSTraceHeader') {
      throw refuse.invalidParameterValue(`Message system attribute name '${name}' is invalid.`);
    }
    if (!isRecord(value) || value.DataType !== 'String' || typeof value.StringValue !== 'string' || value.StringValue === '') {
      throw refuse.invalidParameterValue('Message system attribute AWSTraceHeader must be a non-empty String.');
    }
    traceHeader = value.StringValue;
  }
  return traceHeader;
}

/** One message of a SendMessage or of a batch entry, checked as SQS checks it for this queue. */
function validateMessage(queue: Queue, input: Record<string, unknown>): Outgoing {
  const { fifo, contentBasedDeduplication } = queue.declaration;
  const { MessageBody, DelaySeconds, MessageGroupId, MessageDeduplicationId } = input;
  if (MessageBody === undefined || MessageBody === null || MessageBody === '') throw refuse.missingParameter('MessageBody');
  if (typeof MessageBody !== 'string') throw refuse.malformed('MessageBody must be a string.');
  if (INVALID_BODY_CHARACTER.test(MessageBody)) throw refuse.invalidMessageContents();
  const { attributes, bytes: attributeBytes } = parseMessageAttributes(input.MessageAttributes);
  const bytes = Buffer.byteLength(MessageBody) + attributeBytes;
  if (bytes > MAX_MESSAGE_BYTES) {
    throw refuse.invalidParameterValue(
      `One or more parameters are invalid. Reason: Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`,
    );
  }

  let delaySeconds = 0;
  if (DelaySeconds !== undefined && DelaySeconds !== null) {
    if (!isInteger(DelaySeconds)) throw refuse.malformed('DelaySeconds must be an integer.');
    // A FIFO queue has no per-message delay; SQS lets 0 through.
    if (fifo && DelaySeconds !== 0) {
      throw refuse.invalidValue(
        'DelaySeconds',
        DelaySeconds,
        'The request include parameter that is not valid for this queue type.',
      );
    }
    if (DelaySeconds < 0 || DelaySeconds > MAX_DELAY_SECONDS) {
      throw refuse.invalidValue('DelaySeconds', DelaySeconds, `DelaySeconds must be >= 0 and <= ${MAX_DELAY_SECONDS}.`);
    }
    delaySeconds = DelaySeconds;
  }

  // A standard queue takes a group too (fair queues), with the same rules.
  const hasGroup = MessageGroupId !== undefined && MessageGroupId !== null;
  if (fifo && !hasGroup) throw refuse.missingParameter('MessageGroupId');
  if (hasGroup && (typeof MessageGroupId !== 'string' || !GROUP_OR_DEDUPLICATION_ID.test(MessageGroupId))) {
    throw refuse.invalidValue(
      'MessageGroupId',
      MessageGroupId,
      'MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.',
    );
  }

  const hasDeduplicationId = MessageDeduplicationId !== undefined && MessageDeduplicationId !== null;
  if (hasDeduplicationId && !fifo) {
    throw refuse.invalidValue(
      'MessageDeduplicationId',
      MessageDeduplicationId,
      'The request include parameter that is not valid for this queue type.',
    );
  }
  if (
    hasDeduplicationId &&
    (typeof MessageDeduplicationId !== 'string' || !GROUP_OR_DEDUPLICATION_ID.test(MessageDeduplicationId))
  ) {
    throw refuse.invalidValue(
      'MessageDeduplicationId',
      MessageDeduplicationId,
      'MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.',
    );
  }
  if (fifo && !hasDeduplicationId && !contentBasedDeduplication) {
    throw refuse.invalidParameterValue(
      'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
    );
  }
  const traceHeader = parseTraceHeader(input.MessageSystemAttributes);

  return {
    body: MessageBody,
    attributes,
    bytes,
    delaySeconds,
    ...(hasGroup ? { groupId: MessageGroupId as string } : {}),
    ...(hasDeduplicationId ? { deduplicationId: MessageDeduplicationId as string } : {}),
    ...(traceHeader ? { traceHeader } : {}),
  };
}

function validateDeclaration(declaration: LocalQueueDeclaration): void {
  const problem = (message: string) => new LocalServiceError('SQS emulator', `queue ${declaration.name}: ${message}`);
  const sqsName = `${declaration.name}${declaration.fifo ? '.fifo' : ''}`;
  if (!QUEUE_NAME.test(declaration.name) || sqsName.length > MAX_QUEUE_NAME_LENGTH) {
    throw problem(`SQS takes 1 to 80 letters, digits, hyphens and underscores (with .fifo, for a FIFO queue)`);
  }
  const { visibilityTimeoutSeconds, maxReceiveCount, retentionSeconds } = declaration;
  if (
    !isInteger(visibilityTimeoutSeconds) ||
    visibilityTimeoutSeconds < 0 ||
    visibilityTimeoutSeconds > MAX_VISIBILITY_TIMEOUT_SECONDS
  ) {
    throw problem(`the visibility timeout must be 0 to ${MAX_VISIBILITY_TIMEOUT_SECONDS} seconds`);
  }
  if (!isInteger(maxReceiveCount) || maxReceiveCount < 1 || maxReceiveCount > 1_000) {
    throw problem('maxReceiveCount must be 1 to 1,000');
  }
  if (retentionSeconds !== undefined && (!isInteger(retentionSeconds) || retentionSeconds < 60 || retentionSeconds > 1_209_600)) {
    throw problem('the retention period must be 60 to 1,209,600 seconds');
  }
  if (declaration.contentBasedDeduplication && !declaration.fifo) {
    throw problem('content-based deduplication is for FIFO queues only');
  }
}

/** The access key of a SigV4-signed SQS request (SQS names it as the sender), or undefined if unsigned. */
function senderOf(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization ?? '';
  return /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/\d{8}\/[^/]+\/sqs\/aws4_request\b/.exec(authorization)?.[1];
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(length > MAX_REQUEST_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(
  response: ServerResponse,
  requestId: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': requestId,
    ...headers,
  });
  response.end(text);
}

export async function startLocalSqs(options: LocalSqsOptions): Promise<LocalSqs> {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? systemClock;
  const region = options.region ?? 'local';
  const queues = new Map<string, Queue>();
  const bySqsName = new Map<string, Queue>();
  for (const declaration of options.queues) {
    validateDeclaration(declaration);
    if (queues.has(declaration.name)) throw new LocalServiceError('SQS emulator', `queue ${declaration.name} is declared twice`);
    const sqsName = `${declaration.name}${declaration.fifo ? '.fifo' : ''}`;
    const queue: Queue = {
      declaration,
      sqsName,
      url: '',
      arn: `arn:aws:sqs:${region}:${ACCOUNT_ID}:${sqsName}`,
      messages: [],
      deduplication: new Map(),
      consumer: undefined,
      deadLetters: [],
    };
    queues.set(declaration.name, queue);
    bySqsName.set(sqsName, queue);
  }

  let sequence = 0n;
  let stopped = false;
  let pumpScheduled: NodeJS.Immediate | undefined;
  let wake: { at: number; cancel: () => void } | undefined;
  const running = new Set<Promise<void>>();
  let settleWaiters: (() => void)[] = [];

  const queueNamed = (name: string): Queue => {
    const queue = queues.get(name);
    if (!queue) throw new Error(`The local SQS has no queue named ${name} (declared: ${[...queues.keys()].join(', ')})`);
    return queue;
  };

  const queueOfUrl = (raw: unknown): Queue => {
    if (raw === undefined || raw === null || raw === '') throw refuse.missingParameter('QueueUrl');
    if (typeof raw !== 'string') throw refuse.malformed('QueueUrl must be a string.');
    let path: string;
    try {
      path = new URL(raw).pathname;
    } catch {
      throw refuse.nonExistentQueue();
    }
    const [, account, name, ...rest] = path.split('/');
    const queue = account === ACCOUNT_ID && rest.length === 0 && name ? bySqsName.get(name) : undefined;
    if (!queue) throw refuse.nonExistentQueue();
    return queue;
  };

  // --- Sending ---------------------------------------------------------------------------

  /** Enqueues a validated message, or answers for the first one of its deduplication id. */
  const enqueue = (queue: Queue, outgoing: Outgoing, senderId: string) => {
    const now = clock.now();
    const md5OfBody = md5(outgoing.body);
    const md5OfMessageAttributes = md5OfAttributes(outgoing.attributes);
    const md5OfSystemAttributes = outgoing.traceHeader
      ? md5OfAttributes({ AWSTraceHeader: { dataType: 'String', stringValue: outgoing.traceHeader } })
      : undefined;
    // The checksums are of this request, whatever it deduplicates to: the SDK checks them against what it sent.
    const checksums = {
      MD5OfMessageBody: md5OfBody,
      ...(md5OfMessageAttributes ? { MD5OfMessageAttributes: md5OfMessageAttributes } : {}),
      ...(md5OfSystemAttributes ? { MD5OfMessageSystemAttributes: md5OfSystemAttributes } : {}),
    };
    let deduplicationId: string | undefined;
    let sequenceNumber: string | undefined;
    if (queue.declaration.fifo) {
      deduplicationId = outgoing.deduplicationId ?? createHash('sha256').update(outgoing.body).digest('hex');
      for (const [id, seen] of queue.deduplication) {
        if (now - seen.sentAt >= DEDUPLICATION_INTERVAL_MS) queue.deduplication.delete(id);
      }
      const first = queue.deduplication.get(deduplicationId);
      // Accepted, not enqueued again: answered as the first send was (a duplicate does not extend the interval).
      if (first) return { MessageId: first.messageId, ...checksums, SequenceNumber: first.sequenceNumber };
      sequence += 1n;
      sequenceNumber = (10n ** 19n + sequence).toString();
    }
    const message: StoredMessage = {
      messageId: randomUUID(),
      body: outgoing.body,
      md5OfBody,
      attributes: outgoing.attributes,
      md5OfAttributes: md5OfMessageAttributes,
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
    schedulePump();
    return { MessageId: message.messageId, ...checksums, ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}) };
  };

  const sendMessage = (input: Record<string, unknown>, senderId: string) => {
    const queue = queueOfUrl(input.QueueUrl);
    return enqueue(queue, validateMessage(queue, input), senderId);
  };

  const sendMessageBatch = (input: Record<string, unknown>, senderId: string) => {
    const queue = queueOfUrl(input.QueueUrl);
    const entries = input.Entries;
    if (entries !== undefined && entries !== null && !Array.isArray(entries)) throw refuse.malformed('Entries must be a list.');
    if (!entries || entries.length === 0) {
      throw refuse.batch('EmptyBatchRequest', 'There should be at least one SendMessageBatchRequestEntry in the request.');
    }
    if (entries.length > MAX_BATCH_ENTRIES) {
      throw refuse.batch(
        'TooManyEntriesInBatchRequest',
        `Maximum number of entries per request are ${MAX_BATCH_ENTRIES}. You have sent ${entries.length}.`,
      );
    }
    const seen = new Set<string>();
    for (const entry of entries) {
      if (!isRecord(entry)) throw refuse.malformed('Each entry must be a structure.');
      const { Id } = entry;
      if (typeof Id !== 'string' || !BATCH_ENTRY_ID.test(Id)) {
        throw refuse.batch(
          'InvalidBatchEntryId',
          'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
        );
      }
      if (seen.has(Id)) throw refuse.batch('BatchEntryIdsNotDistinct', `Id ${Id} repeated.`);
      seen.add(Id);
    }
    const checked = (entries as Record<string, unknown>[]).map((entry) => {
      try {
        return { id: entry.Id as string, outgoing: validateMessage(queue, entry) };
      } catch (error) {
        if (!(error instanceof SqsError)) throw error;
        return { id: entry.Id as string, error };
      }
    });
    const total = checked.reduce((sum, entry) => sum + (entry.outgoing?.bytes ?? 0), 0);
    if (total > MAX_BATCH_BYTES) {
      throw refuse.batch(
        'BatchRequestTooLong',
        `Batch requests cannot be longer than ${MAX_BATCH_BYTES} bytes. You have sent ${total} bytes.`,
      );
    }
    const Successful: Record<string, unknown>[] = [];
    const Failed: Record<string, unknown>[] = [];
    // In the order sent: a FIFO queue enqueues a batch's messages in that order.
    for (const entry of checked) {
      if (entry.outgoing) Successful.push({ Id: entry.id, ...enqueue(queue, entry.outgoing, senderId) });
      else Failed.push({ Id: entry.id, SenderFault: true, Code: entry.error.code, Message: entry.error.message });
    }
    return { Successful, Failed };
  };

  const getQueueUrl = (input: Record<string, unknown>) => {
    const { QueueName } = input;
    if (QueueName === undefined || QueueName === null || QueueName === '') throw refuse.missingParameter('QueueName');
    const queue = typeof QueueName === 'string' ? bySqsName.get(QueueName) : undefined;
    if (!queue) throw refuse.nonExistentQueue();
    return { QueueUrl: queue.url };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    try {
      const body = await readBody(request);
      const operation = /^AmazonSQS\.(\w+)$/.exec(String(request.headers['x-amz-target'] ?? ''))?.[1];
      if (request.method !== 'POST' || !operation || !SQS_OPERATIONS.has(operation)) throw refuse.unknownOperation();
      const senderId = senderOf(request);
      if (!senderId) throw refuse.missingAuthentication();
      if (body === undefined) throw refuse.malformed(`The request is over ${MAX_REQUEST_BYTES} bytes.`);
      let input: unknown;
      try {
        input = body === '' ? {} : JSON.parse(body);
      } catch {
        throw refuse.malformed('The request body is not JSON.');
      }
      if (!isRecord(input)) throw refuse.malformed('The request body must be a JSON object.');
      let result: unknown;
      if (operation === 'SendMessage') result = sendMessage(input, senderId);
      else if (operation === 'SendMessageBatch') result = sendMessageBatch(input, senderId);
      else if (operation === 'GetQueueUrl') result = getQueueUrl(input);
      else throw refuse.unsupportedOperation(operation);
      answer(response, requestId, 200, result);
    } catch (error) {
      if (error instanceof SqsError) {
        answer(
          response,
          requestId,
          error.status,
          { __type: error.type, message: error.message },
          { 'x-amzn-query-error': `${error.code};Sender` },
        );
      } else {
        log(`SQS emulator: request failed: ${(error as Error).stack ?? String(error)}`);
        answer(
          response,
          requestId,
          500,
          { __type: 'com.amazonaws.sqs#InternalError', message: 'We encountered an internal error. Please try again.' },
          { 'x-amzn-query-error': 'InternalError;Receiver' },
        );
      }
    }
  };

  // --- Delivering ------------------------------------------------------------------------

  function schedulePump() {
    if (stopped || pumpScheduled) return;
    pumpScheduled = setImmediate(pump);
  }

  function checkSettled() {
    if (!stopped && (pumpScheduled || running.size > 0)) return;
    const waiters = settleWaiters;
    settleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  const retentionMs = (queue: Queue) => (queue.declaration.retentionSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000;

  const remove = (queue: Queue, message: StoredMessage) => {
    const index = queue.messages.indexOf(message);
    if (index >= 0) queue.messages.splice(index, 1);
  };

  const moveToDeadLetters = (queue: Queue, message: StoredMessage) => {
    remove(queue, message);
    const reason = message.lastFailure ?? 'its visibility timeout ended before it was deleted';
    queue.deadLetters.push({
      messageId: message.messageId,
      body: message.body,
      ...(message.groupId === undefined ? {} : { groupId: message.groupId }),
      receiveCount: message.receiveCount,
      reason,
    });
    log(
      `SQS ${queue.sqsName}: message ${message.messageId}${message.groupId === undefined ? '' : ` (group ${message.groupId})`} ` +
        `moved to the dead-letter queue after ${message.receiveCount} receives (maxReceiveCount ${queue.declaration.maxReceiveCount}); ` +
        `its last delivery failed: ${reason}`,
    );
  };

  /** The next batch the queue's poller receives, or an empty one; moves what ran out of receives on the way. */
  const receiveBatch = (queue: Queue, batchSize: number, now: number): StoredMessage[] => {
    const { fifo, maxReceiveCount } = queue.declaration;
    // A group with a hidden message (in flight, or failed and not visible yet) delivers nothing else.
    const lockedGroups = new Set<string | undefined>();
    if (fifo) for (const message of queue.messages) if (message.visibleAt > now) lockedGroups.add(message.groupId);
    const batch: StoredMessage[] = [];
    for (const message of [...queue.messages]) {
      if (batch.length >= batchSize) break;
      if (message.visibleAt > now || (fifo && lockedGroups.has(message.groupId))) continue;
      if (now - message.sentAt >= retentionMs(queue)) {
        remove(queue, message);
        log(`SQS ${queue.sqsName}: message ${message.messageId} deleted unread after the queue's retention period`);
        continue;
      }
      if (message.receiveCount >= maxReceiveCount) {
        moveToDeadLetters(queue, message);
        continue;
      }
      batch.push(message);
    }
    return batch;
  };

  /** What the consumer's answer means: the messages to keep (the rest are deleted), and why. */
  const failuresOf = (result: unknown, delivered: readonly StoredMessage[]): Outcome => {
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
  };

  const deliver = (queue: Queue, consumer: SqsConsumer, timeoutSeconds: number, batch: StoredMessage[], now: number) => {
    const { visibilityTimeoutSeconds } = queue.declaration;
    const handles = new Map<StoredMessage, string>();
    const Records: SQSRecord[] = batch.map((message) => {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + visibilityTimeoutSeconds * 1000;
      message.receiptHandle = randomBytes(48).toString('base64');
      handles.set(message, message.receiptHandle);
      return recordOf(queue, message);
    });
    const invocation = (async () => {
      let outcome: Outcome;
      try {
        // Lambda stops the function at its timeout and the batch counts as failed; here its code
        // cannot be stopped, but its result no longer counts, as in AWS.
        const deadline = now + timeoutSeconds * 1000;
        let cancelTimer: () => void = () => undefined;
        const timedOut = new Promise<'timed-out'>((resolveTimeout) => {
          cancelTimer = clock.after(timeoutSeconds * 1000, () => resolveTimeout('timed-out'));
        });
        const result: unknown = await Promise.race([
          consumer(
            { Records },
            lambdaContext({
              functionName: `${queue.sqsName.replace(/\.fifo$/, '')}-consumer`,
              deadline,
              region,
              memoryMb: 512,
              now: () => clock.now(),
            }),
          ),
          timedOut,
        ]).finally(() => cancelTimer());
        if (result === 'timed-out') throw new Error(`Task timed out after ${timeoutSeconds} seconds`);
        outcome = failuresOf(result, batch);
        if (outcome.problem) {
          log(
            `SQS ${queue.sqsName}: the consumer's answer is refused, as Lambda refuses it (${outcome.problem}): ` +
              `the whole batch returns to the queue after the ${visibilityTimeoutSeconds} s visibility timeout`,
          );
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome = { failed: new Set(batch), reason: `the consumer threw: ${message}` };
        log(
          `SQS ${queue.sqsName}: the consumer failed on ${batch.length} message(s) (${batch.map((m) => m.messageId).join(', ')}): ${message}; ` +
            `they return to the queue after the ${visibilityTimeoutSeconds} s visibility timeout`,
        );
      }
      let stale = 0;
      for (const message of batch) {
        // Received again since (its visibility timeout ended first) or already gone: this result no longer applies.
        if (message.receiptHandle !== handles.get(message) || !queue.messages.includes(message)) {
          stale += 1;
          continue;
        }
        if (outcome.failed.has(message)) message.lastFailure = outcome.reason;
        else remove(queue, message);
      }
      if (stale > 0) {
        log(
          `SQS ${queue.sqsName}: the consumer finished after the ${visibilityTimeoutSeconds} s visibility timeout of ${stale} message(s), ` +
            'which were delivered again meanwhile: its result does not delete them (set the visibility timeout above the consumer timeout)',
        );
      }
    })();
    running.add(invocation);
    void invocation.finally(() => {
      running.delete(invocation);
      schedulePump();
      checkSettled();
    });
  };

  const recordOf = (queue: Queue, message: StoredMessage): SQSRecord => {
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
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle ?? '',
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
      md5OfBody: message.md5OfBody,
      ...(message.md5OfAttributes === undefined ? {} : { md5OfMessageAttributes: message.md5OfAttributes }),
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: region,
    };
  };

  /** Delivers everything that can be delivered now, then sets the timer for the next message to show. */
  function pump() {
    pumpScheduled = undefined;
    if (stopped) return;
    const now = clock.now();
    let nextVisible = Number.POSITIVE_INFINITY;
    for (const queue of queues.values()) {
      if (!queue.consumer) continue;
      const { batchSize, consumer, timeoutSeconds } = queue.consumer;
      for (let batch = receiveBatch(queue, batchSize, now); batch.length > 0; batch = receiveBatch(queue, batchSize, now)) {
        deliver(queue, consumer, timeoutSeconds, batch, now);
      }
      for (const message of queue.messages) if (message.visibleAt > now) nextVisible = Math.min(nextVisible, message.visibleAt);
    }
    if (wake && wake.at !== nextVisible) {
      wake.cancel();
      wake = undefined;
    }
    if (!wake && Number.isFinite(nextVisible)) {
      const cancel = clock.after(nextVisible - now, () => {
        wake = undefined;
        schedulePump();
      });
      wake = { at: nextVisible, cancel };
    }
    checkSettled();
  }

  // --- Server ----------------------------------------------------------------------------

  const server = createServer((request, response) => void handle(request, response));
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
  for (const queue of queues.values()) queue.url = `${endpoint}/${ACCOUNT_ID}/${queue.sqsName}`;

  return {
    endpoint,
    queueUrl: (name) => queueNamed(name).url,
    consume(name, { batchSize, consumer, timeoutSeconds = 1 }) {
      const queue = queueNamed(name);
      const maxBatchSize = queue.declaration.fifo ? MAX_FIFO_BATCH_SIZE : MAX_STANDARD_BATCH_SIZE;
      if (queue.consumer) throw new Error(`The local SQS queue ${queue.sqsName} already has a consumer`);
      if (!isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 900) {
        throw new Error(`A Lambda function's timeout is 1 to 900 seconds, not ${timeoutSeconds}`);
      }
      if (!isInteger(batchSize) || batchSize < 1 || batchSize > maxBatchSize) {
        throw new Error(`Lambda takes a batch size of 1 to ${maxBatchSize} from ${queue.sqsName}, not ${batchSize}`);
      }
      if (queue.declaration.visibilityTimeoutSeconds < timeoutSeconds) {
        throw new Error(
          `Lambda refuses to consume ${queue.sqsName}: its visibility timeout (${queue.declaration.visibilityTimeoutSeconds} s) is less than the function timeout (${timeoutSeconds} s)`,
        );
      }
      queue.consumer = { batchSize, consumer, timeoutSeconds };
      schedulePump();
    },
    settled: () =>
      new Promise<void>((resolve) => {
        settleWaiters.push(resolve);
        checkSettled();
      }),
    deadLetters: (name) => [...queueNamed(name).deadLetters],
    async stop() {
      if (stopped) return;
      stopped = true;
      if (pumpScheduled) clearImmediate(pumpScheduled);
      pumpScheduled = undefined;
      wake?.cancel();
      wake = undefined;
      checkSettled();
      await Promise.allSettled([...running]);
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
