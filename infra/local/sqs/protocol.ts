import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Outgoing, Queue, SqsStore, StoredAttribute } from './store';

/** SQS's limits (SQS API reference, 2026). */
const MAX_MESSAGE_BYTES = 1_048_576;
const MAX_BATCH_BYTES = 1_048_576;
const MAX_BATCH_ENTRIES = 10;
const MAX_MESSAGE_ATTRIBUTES = 10;
const MAX_DELAY_SECONDS = 900;
const ACCOUNT_ID = '000000000000';
/** More than any valid request, even a 1 MiB batch whose every character JSON escapes as \uXXXX. */
const MAX_REQUEST_BYTES = 8 * 1_048_576;

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

export const md5 = (bytes: string | Buffer) => createHash('md5').update(bytes).digest('hex');
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The checksum SQS answers for message (or system) attributes: each, by name, length-prefixed. */
export function md5OfAttributes(attributes: Record<string, StoredAttribute>): string | undefined {
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

/** One message attribute as SQS validates it. */
function parseMessageAttribute(name: string, value: unknown): StoredAttribute {
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
  if (type === 'Binary') {
    if (typeof BinaryValue !== 'string' || BinaryValue === '') {
      throw refuse.invalidParameterValue(`The message attribute '${name}' must contain a non-empty message attribute value.`);
    }
    if (StringValue !== undefined) {
      throw refuse.invalidParameterValue(`The message attribute '${name}' with type 'Binary' must use field 'Binary'.`);
    }
    return { dataType: DataType, binaryValue: Buffer.from(BinaryValue, 'base64') };
  }
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
  return { dataType: DataType, stringValue: StringValue };
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
    const attribute = parseMessageAttribute(name, raw[name]);
    attributes[name] = attribute;
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(attribute.dataType) +
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

function parseDelay(queue: Queue, DelaySeconds: unknown): number {
  if (DelaySeconds === undefined || DelaySeconds === null) return 0;
  if (!isInteger(DelaySeconds)) throw refuse.malformed('DelaySeconds must be an integer.');
  // A FIFO queue has no per-message delay; SQS lets 0 through.
  if (queue.declaration.fifo && DelaySeconds !== 0) {
    throw refuse.invalidValue(
      'DelaySeconds',
      DelaySeconds,
      'The request include parameter that is not valid for this queue type.',
    );
  }
  if (DelaySeconds < 0 || DelaySeconds > MAX_DELAY_SECONDS) {
    throw refuse.invalidValue('DelaySeconds', DelaySeconds, `DelaySeconds must be >= 0 and <= ${MAX_DELAY_SECONDS}.`);
  }
  return DelaySeconds;
}

/** Required by a FIFO queue; a standard queue takes one too (fair queues), with the same rules. */
function parseGroupId(queue: Queue, MessageGroupId: unknown): string | undefined {
  if (MessageGroupId === undefined || MessageGroupId === null) {
    if (queue.declaration.fifo) throw refuse.missingParameter('MessageGroupId');
    return undefined;
  }
  if (typeof MessageGroupId !== 'string' || !GROUP_OR_DEDUPLICATION_ID.test(MessageGroupId)) {
    throw refuse.invalidValue(
      'MessageGroupId',
      MessageGroupId,
      'MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.',
    );
  }
  return MessageGroupId;
}

function parseDeduplicationId(queue: Queue, MessageDeduplicationId: unknown): string | undefined {
  const { fifo, contentBasedDeduplication } = queue.declaration;
  if (MessageDeduplicationId === undefined || MessageDeduplicationId === null) {
    if (fifo && !contentBasedDeduplication) {
      throw refuse.invalidParameterValue(
        'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly',
      );
    }
    return undefined;
  }
  if (!fifo) {
    throw refuse.invalidValue(
      'MessageDeduplicationId',
      MessageDeduplicationId,
      'The request include parameter that is not valid for this queue type.',
    );
  }
  if (typeof MessageDeduplicationId !== 'string' || !GROUP_OR_DEDUPLICATION_ID.test(MessageDeduplicationId)) {
    throw refuse.invalidValue(
      'MessageDeduplicationId',
      MessageDeduplicationId,
      'MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.',
    );
  }
  return MessageDeduplicationId;
}

/** One message of a SendMessage or of a batch entry, checked as SQS checks it for this queue. */
function validateMessage(queue: Queue, input: Record<string, unknown>): Outgoing {
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

  const delaySeconds = parseDelay(queue, DelaySeconds);
  const groupId = parseGroupId(queue, MessageGroupId);
  const deduplicationId = parseDeduplicationId(queue, MessageDeduplicationId);
  const traceHeader = parseTraceHeader(input.MessageSystemAttributes);

  return {
    body: MessageBody,
    attributes,
    bytes,
    delaySeconds,
    ...(groupId === undefined ? {} : { groupId }),
    ...(deduplicationId === undefined ? {} : { deduplicationId }),
    ...(traceHeader ? { traceHeader } : {}),
  };
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

/** The answers of a running emulator: its queues, its address, and whom to tell of a new message. */
export interface SqsApi {
  store: SqsStore;
  /** http://127.0.0.1:<port>: every queue URL starts with it. */
  endpoint: string;
  /** Called after each accepted send. */
  sent: () => void;
  log: (line: string) => void;
}

/** A queue's URL, shaped like AWS's: `${endpoint}/000000000000/${sqsName}`. */
export const queueUrl = (endpoint: string, queue: Queue) => `${endpoint}/${ACCOUNT_ID}/${queue.sqsName}`;

export const queueArn = (region: string, queue: Queue) => `arn:aws:sqs:${region}:${ACCOUNT_ID}:${queue.sqsName}`;

/** The queue a QueueUrl names, whatever its host (the SDK may reach the emulator by another name). */
function queueOfUrl(store: SqsStore, raw: unknown): Queue {
  if (raw === undefined || raw === null || raw === '') throw refuse.missingParameter('QueueUrl');
  if (typeof raw !== 'string') throw refuse.malformed('QueueUrl must be a string.');
  let path: string;
  try {
    path = new URL(raw).pathname;
  } catch {
    throw refuse.nonExistentQueue();
  }
  const [, account, name, ...rest] = path.split('/');
  const queue = account === ACCOUNT_ID && rest.length === 0 && name ? store.queueOfSqsName(name) : undefined;
  if (!queue) throw refuse.nonExistentQueue();
  return queue;
}

/** Enqueues a validated message and answers as SendMessage does (a batch entry adds its Id). */
function send(api: SqsApi, queue: Queue, outgoing: Outgoing, senderId: string) {
  const { messageId, sequenceNumber } = api.store.enqueue(queue, outgoing, senderId);
  api.sent();
  const md5OfMessageAttributes = md5OfAttributes(outgoing.attributes);
  const md5OfSystemAttributes = outgoing.traceHeader
    ? md5OfAttributes({ AWSTraceHeader: { dataType: 'String', stringValue: outgoing.traceHeader } })
    : undefined;
  // Of this request even when it deduplicates to an earlier send: the SDK checks them against what it sent.
  return {
    MessageId: messageId,
    MD5OfMessageBody: md5(outgoing.body),
    ...(md5OfMessageAttributes ? { MD5OfMessageAttributes: md5OfMessageAttributes } : {}),
    ...(md5OfSystemAttributes ? { MD5OfMessageSystemAttributes: md5OfSystemAttributes } : {}),
    ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}),
  };
}

function sendMessage(api: SqsApi, input: Record<string, unknown>, senderId: string) {
  const queue = queueOfUrl(api.store, input.QueueUrl);
  return send(api, queue, validateMessage(queue, input), senderId);
}

/** A batch's entries, refused as a whole for what SQS refuses the whole batch for. */
function batchEntries(input: Record<string, unknown>): Record<string, unknown>[] {
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
  return entries as Record<string, unknown>[];
}

function sendMessageBatch(api: SqsApi, input: Record<string, unknown>, senderId: string) {
  const queue = queueOfUrl(api.store, input.QueueUrl);
  const checked = batchEntries(input).map((entry) => {
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
    if (entry.outgoing) Successful.push({ Id: entry.id, ...send(api, queue, entry.outgoing, senderId) });
    else Failed.push({ Id: entry.id, SenderFault: true, Code: entry.error.code, Message: entry.error.message });
  }
  return { Successful, Failed };
}

function getQueueUrl(api: SqsApi, input: Record<string, unknown>) {
  const { QueueName } = input;
  if (QueueName === undefined || QueueName === null || QueueName === '') throw refuse.missingParameter('QueueName');
  const queue = typeof QueueName === 'string' ? api.store.queueOfSqsName(QueueName) : undefined;
  if (!queue) throw refuse.nonExistentQueue();
  return { QueueUrl: queueUrl(api.endpoint, queue) };
}

/** The request's JSON input, once its operation and signature are known to be SQS's. */
async function readInput(
  request: IncomingMessage,
): Promise<{ operation: string; senderId: string; input: Record<string, unknown> }> {
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
  return { operation, senderId, input };
}

/** Answers one request of AWS's JSON 1.0 protocol: SendMessage, SendMessageBatch and GetQueueUrl; the rest is refused as SQS would. */
export async function handleSqsRequest(api: SqsApi, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const requestId = randomUUID();
  try {
    const { operation, senderId, input } = await readInput(request);
    let result: unknown;
    if (operation === 'SendMessage') result = sendMessage(api, input, senderId);
    else if (operation === 'SendMessageBatch') result = sendMessageBatch(api, input, senderId);
    else if (operation === 'GetQueueUrl') result = getQueueUrl(api, input);
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
      api.log(`SQS emulator: request failed: ${(error as Error).stack ?? String(error)}`);
      answer(
        response,
        requestId,
        500,
        { __type: 'com.amazonaws.sqs#InternalError', message: 'We encountered an internal error. Please try again.' },
        { 'x-amzn-query-error': 'InternalError;Receiver' },
      );
    }
  }
}
