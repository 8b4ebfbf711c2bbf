import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { invalidArgument, S3Error, XML_DECLARATION, xmlEscape } from './errors';
import { encodeKey, refuseUnsafeKey, sendXml, type Target } from './protocol';
import { checkContentLength, type ContentLengthRange, type S3Credentials, verifyPostPolicy } from './signatures';
import type { ObjectName, ObjectStore, Spooled } from './store';

/** S3 refuses a POST whose fields before the file are larger than this. */
const MAX_POST_FIELDS_BYTES = 20 * 1_024;
/** Form fields S3 keeps as the object's headers. */
const POST_OBJECT_HEADERS = [
  'content-type',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'expires',
  'x-amz-storage-class',
];

/** The POST's key, `${filename}` replaced by the file's name as S3 does; InvalidArgument when there is none. */
function postKey(fields: ReadonlyMap<string, string>, fileName: string): string {
  const key = fields.get('key');
  if (key === undefined) {
    throw invalidArgument(
      "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.",
      'key',
      '',
    );
  }
  const named = key.replace('${filename}', fileName);
  if (named === '') throw invalidArgument('User key must have a length greater than 0.', 'key', '');
  refuseUnsafeKey(named);
  return named;
}

/** The form as read: its fields (names in lower case), the object's key, the policy's size range, and the file, spooled. */
interface PostedForm {
  fields: ReadonlyMap<string, string>;
  key: string;
  range: ContentLengthRange;
  spooled: Spooled;
}

/**
 * Reads the form: the file is checked against the policy as soon as it starts, and kept aside,
 * until the whole form has been read well-formed.
 */
async function readForm(
  store: ObjectStore,
  credentials: S3Credentials,
  request: IncomingMessage,
  target: Target,
): Promise<PostedForm> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { fieldSize: MAX_POST_FIELDS_BYTES, parts: 1_000 } });
  } catch {
    throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, {
      Condition: 'Bucket POST must be of the enclosure-type multipart/form-data',
    });
  }
  const fields = new Map<string, string>();
  let fieldBytes = 0;
  let tooLarge = false;
  let files = 0;
  let received: Promise<{ key: string; range: ContentLengthRange; spooled: Spooled }> | undefined;

  const receiveFile = async (file: Readable, fileName: string) => {
    let range: ContentLengthRange;
    let key: string;
    try {
      if (tooLarge) {
        throw new S3Error(
          'MaxPostPreDataLengthExceeded',
          'Your POST request fields preceeding the upload file was too large.',
          400,
          {
            MaxPostPreDataLength: MAX_POST_FIELDS_BYTES,
          },
        );
      }
      key = postKey(fields, fileName);
      range = await verifyPostPolicy(fields, target.bucket, credentials);
    } catch (error) {
      file.resume();
      throw error;
    }
    return { key, range, spooled: await store.spool(file, { keepAtMost: range.max }) };
  };
  const onFile = (file: Readable, fileName: string) => {
    files += 1;
    received = receiveFile(file, fileName);
    // Awaited once the whole form has been read.
    received.catch(() => undefined);
  };

  parser.on('field', (name, value, info) => {
    const lower = name.toLowerCase();
    if (files > 0) return; // S3 ignores whatever follows the file.
    // A file sent as a plain field (no file name): its text is the object.
    if (lower === 'file') return onFile(Readable.from([Buffer.from(value)]), '');
    fieldBytes += name.length + value.length;
    if (fieldBytes > MAX_POST_FIELDS_BYTES || info.valueTruncated) tooLarge = true;
    if (!fields.has(lower)) fields.set(lower, value);
  });
  parser.on('file', (name, file, info) => {
    if (files > 0 || name.toLowerCase() !== 'file') {
      if (name.toLowerCase() === 'file') files += 1;
      file.resume();
      return;
    }
    onFile(file, info.filename ?? '');
  });

  const discard = () => received?.then(({ spooled }) => store.discard(spooled)).catch(() => undefined);
  try {
    await pipeline(request, parser);
  } catch (error) {
    await discard();
    if (error instanceof S3Error) throw error;
    throw new S3Error('MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.', 400);
  }
  if (!received || files !== 1) {
    await discard();
    throw invalidArgument('POST requires exactly one file upload per request.', 'file', String(files));
  }
  return { fields, ...(await received) };
}

/**
 * A browser's upload by a presigned POST (multipart/form-data): stored only once the whole form
 * was read and its file's size is in the policy's range; answered as the form asks.
 */
export async function presignedPost(
  store: ObjectStore,
  credentials: S3Credentials,
  request: IncomingMessage,
  response: ServerResponse,
  target: Target,
) {
  const { fields, key, range, spooled } = await readForm(store, credentials, request, target);
  let etag: string;
  try {
    checkContentLength(spooled.received, range);
    etag = await storePostedFile(store, { bucket: target.bucket, key }, fields, spooled, request.headers.host);
  } finally {
    await store.discard(spooled);
  }
  const location = `http://${request.headers.host ?? '127.0.0.1'}/${target.bucket}/${encodeKey(key)}`;
  const headers = { ETag: `"${etag}"`, Location: location };
  const redirect = fields.get('success_action_redirect') ?? fields.get('redirect');
  const redirectUrl = redirect && URL.canParse(redirect) ? new URL(redirect) : undefined;
  if (redirectUrl) {
    redirectUrl.searchParams.set('bucket', target.bucket);
    redirectUrl.searchParams.set('key', key);
    redirectUrl.searchParams.set('etag', `"${etag}"`);
    response.writeHead(303, { ...headers, Location: redirectUrl.href }).end();
    return;
  }
  const status = fields.get('success_action_status');
  if (status === '201') {
    sendXml(
      response,
      201,
      `${XML_DECLARATION}<PostResponse><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(target.bucket)}</Bucket>` +
        `<Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(`"${etag}"`)}</ETag></PostResponse>`,
      headers,
    );
    return;
  }
  response.writeHead(status === '200' ? 200 : 204, headers).end();
}

/** The posted file, checked, handed to s3rver as a PUT with the form's headers; its ETag. */
async function storePostedFile(
  store: ObjectStore,
  object: ObjectName,
  fields: ReadonlyMap<string, string>,
  spooled: Spooled,
  host: string | undefined,
): Promise<string> {
  const headers: OutgoingHttpHeaders = { 'content-length': String(spooled.size), host: host ?? '127.0.0.1' };
  for (const [name, value] of fields) {
    if (POST_OBJECT_HEADERS.includes(name) || name.startsWith('x-amz-meta-')) headers[name] = value;
  }
  return store.holding([object], () => store.put(object, headers, spooled));
}
