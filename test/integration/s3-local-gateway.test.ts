import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  NoSuchUpload,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Local } from '../../infra/local/s3-local';

const BUCKET = 'toppubs-files';
const APP_ORIGIN = 'http://localhost:3000';
const OTHER_ORIGIN = 'https://evil.example';
const MIB = 1_048_576;

let dataDir: string;
let s3Local: Awaited<ReturnType<typeof startS3Local>>;
let s3: S3Client;

function client(overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint: s3Local.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    ...overrides,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'toppubs-s3-'));
  s3Local = await startS3Local({ dataDir, allowedOrigins: [APP_ORIGIN] });
  s3 = client();
});

afterAll(async () => {
  s3?.destroy();
  await s3Local?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

let keys = 0;
/** A key no other test uses. */
const newKey = (name: string) => `uploads/${++keys}/${name}`;

async function isStored(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
    throw error;
  }
}

async function readObject(key: string) {
  const answer = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return {
    bytes: Buffer.from((await answer.Body?.transformToByteArray()) ?? []),
    contentType: answer.ContentType,
    etag: answer.ETag,
  };
}

/** The S3 error code of an XML error body. */
const errorCode = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1];

async function sdkError(work: Promise<unknown>): Promise<S3ServiceException> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof S3ServiceException)) throw new Error(`expected an S3 error, got ${String(error)}`);
  return error;
}

/** One character of the signature changed, the rest of the URL as it was. */
function tamperSignature(url: string): string {
  const parsed = new URL(url);
  const signature = parsed.searchParams.get('X-Amz-Signature') ?? '';
  parsed.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
  return parsed.href;
}

/** A raw request, with the path exactly as given (fetch would normalise it). */
function rawRequest(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const { port } = new URL(s3Local.endpoint);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('the local S3: presigned URLs', () => {
  it('stores what a browser PUTs to a presigned URL, with its type', async () => {
    // Prepare
    const key = newKey('photo one.png');
    const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key, ContentType: 'image/png' }), {
      expiresIn: 60,
    });

    // Act
    const answer = await fetch(url, { method: 'PUT', body: 'png bytes', headers: { 'Content-Type': 'image/png' } });

    // Assess
    expect(answer.status).toBe(200);
    const stored = await readObject(key);
    expect(stored.bytes.toString()).toBe('png bytes');
    expect(stored.contentType).toBe('image/png');
    expect(answer.headers.get('etag')).toBe(stored.etag);
  });

  it('keeps the object that was there when an upload to it is interrupted', async () => {
    // Prepare
    const key = newKey('replaced.txt');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'the first version' }));
    const url = new URL(await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 }));

    // Act: a third of the new version is sent, then the browser tab closes.
    await new Promise<void>((resolve) => {
      const upload = httpRequest({
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'PUT',
        headers: { 'Content-Length': '3000' },
      });
      upload.on('error', () => undefined);
      upload.write('x'.repeat(1_000));
      setTimeout(() => {
        upload.destroy();
        setTimeout(resolve, 100);
      }, 100);
    });

    // Assess
    expect((await readObject(key)).bytes.toString()).toBe('the first version');
  });

  it('refuses a presigned URL with one character of its signature changed, and stores nothing', async () => {
    // Prepare
    const key = newKey('tampered.bin');
    const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 });

    // Act
    const answer = await fetch(tamperSignature(url), { method: 'PUT', body: 'nope' });

    // Assess
    expect(answer.status).toBe(403);
    expect(errorCode(await answer.text())).toBe('SignatureDoesNotMatch');
    expect(await isStored(key)).toBe(false);
  });

  it('refuses a presigned URL used for another key than the one it was signed for', async () => {
    // Prepare
    const key = newKey('mine.bin');
    const url = new URL(await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 }));
    const otherKey = newKey('theirs.bin');
    url.pathname = `/${BUCKET}/${otherKey}`;

    // Act
    const answer = await fetch(url, { method: 'PUT', body: 'nope' });

    // Assess
    expect(answer.status).toBe(403);
    expect(errorCode(await answer.text())).toBe('SignatureDoesNotMatch');
    expect(await isStored(otherKey)).toBe(false);
    expect(await isStored(key)).toBe(false);
  });

  it('refuses an expired presigned URL as S3 does', async () => {
    // Prepare
    const key = newKey('late.bin');
    const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 120_000),
    });

    // Act
    const answer = await fetch(url, { method: 'PUT', body: 'too late' });

    // Assess
    expect(answer.status).toBe(403);
    const body = await answer.text();
    expect(errorCode(body)).toBe('AccessDenied');
    expect(body).toContain('Request has expired');
    expect(await isStored(key)).toBe(false);
  });

  it('refuses a request with no signature at all: the bucket is private', async () => {
    // Prepare
    const key = newKey('public.txt');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'secret' }));

    // Act
    const read = await fetch(`${s3Local.endpoint}/${BUCKET}/${key}`);
    const write = await fetch(`${s3Local.endpoint}/${BUCKET}/${newKey('anonymous.txt')}`, { method: 'PUT', body: 'x' });

    // Assess
    expect(read.status).toBe(403);
    expect(errorCode(await read.text())).toBe('AccessDenied');
    expect(write.status).toBe(403);
  });

  it('answers a presigned GET with the content disposition and type it was signed with', async () => {
    // Prepare
    const key = newKey('report.pdf');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: '%PDF-1.7', ContentType: 'application/octet-stream' }));
    const disposition = `attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`;
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: key,
        ResponseContentDisposition: disposition,
        ResponseContentType: 'application/pdf',
      }),
      { expiresIn: 60 },
    );

    // Act
    const answer = await fetch(url);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(disposition);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(await answer.text()).toBe('%PDF-1.7');
  });
});

describe('the local S3: Range GETs', () => {
  const bytes = Buffer.from(Array.from({ length: 1_000 }, (_, index) => (index * 7) & 0xff));
  let url: string;

  beforeAll(async () => {
    const key = newKey('movie.mp4');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: bytes, ContentType: 'video/mp4' }));
    url = await getSignedUrl(
      s3,
      new GetObjectCommand({ Bucket: BUCKET, Key: key, ResponseContentDisposition: 'inline', ResponseContentType: 'video/mp4' }),
      { expiresIn: 60 },
    );
  });

  const get = (range?: string) => fetch(url, range ? { headers: { Range: range } } : {});

  it('answers a range with 206, Content-Range, Accept-Ranges and exactly its bytes, with the signed overrides', async () => {
    // Act
    const answer = await get('bytes=100-199');

    // Assess
    expect(answer.status).toBe(206);
    expect(answer.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(answer.headers.get('content-length')).toBe('100');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('content-type')).toBe('video/mp4');
    expect(answer.headers.get('content-disposition')).toBe('inline');
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
  });

  it('reads open, one-byte, suffix and overlong ranges as S3 does', async () => {
    // Act
    const open = await get('bytes=990-');
    const oneByte = await get('bytes=0-0');
    const suffix = await get('bytes=-10');
    const overlong = await get('bytes=995-5000');

    // Assess
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(990))).toBe(true);
    expect(oneByte.headers.get('content-range')).toBe('bytes 0-0/1000');
    expect(Buffer.from(await oneByte.arrayBuffer()).equals(bytes.subarray(0, 1))).toBe(true);
    expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(990))).toBe(true);
    expect(overlong.status).toBe(206);
    expect(overlong.headers.get('content-range')).toBe('bytes 995-999/1000');
    expect((await overlong.arrayBuffer()).byteLength).toBe(5);
  });

  it('answers 416 InvalidRange for a range past the end, and the whole object for a header it cannot read', async () => {
    // Act
    const pastEnd = await get('bytes=1000-');
    const several = await get('bytes=0-1,5-6');
    const backwards = await get('bytes=9-2');
    const whole = await get();

    // Assess
    expect(pastEnd.status).toBe(416);
    expect(await pastEnd.text()).toContain('<Code>InvalidRange</Code>');
    for (const answer of [several, backwards, whole]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('resumes a download from where it stopped: the two parts make the object', async () => {
    // Prepare: the first 400 bytes arrived before the connection dropped.
    const first = Buffer.from(await (await get('bytes=0-399')).arrayBuffer());

    // Act
    const rest = await get(`bytes=${first.length}-`);

    // Assess
    expect(rest.status).toBe(206);
    expect(Buffer.concat([first, Buffer.from(await rest.arrayBuffer())]).equals(bytes)).toBe(true);
  });

  it('answers NoSuchKey for a range of a missing object', async () => {
    // Prepare
    const missing = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: newKey('gone.bin') }), { expiresIn: 60 });

    // Act
    const answer = await fetch(missing, { headers: { Range: 'bytes=0-9' } });

    // Assess
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain('<Code>NoSuchKey</Code>');
  });
});

describe('the local S3: calls signed in the Authorization header', () => {
  it('serves the SDK calls the functions make: put (bytes, checksummed, streamed), head, get, delete many', async () => {
    // Prepare
    const [plain, checksummed, streamed] = [newKey('plain.txt'), newKey('checksummed.txt'), newKey('streamed.txt')];

    // Act
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: plain, Body: 'plain', ContentType: 'text/plain' }));
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: checksummed, Body: new Uint8Array([1, 2, 3]), ChecksumAlgorithm: 'SHA256' }),
    );
    // A stream of known length: the SDK sends it aws-chunked with a CRC32 trailer.
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: streamed,
        Body: Readable.from([Buffer.from('part one, '), Buffer.from('part two')]),
        ContentLength: 18,
      }),
    );
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: plain }));

    // Assess
    expect(head.ContentType).toBe('text/plain');
    expect(head.ContentLength).toBe(5);
    expect((await readObject(checksummed)).bytes).toEqual(Buffer.from([1, 2, 3]));
    expect((await readObject(streamed)).bytes.toString()).toBe('part one, part two');

    // Act
    await s3.send(
      new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: plain }, { Key: streamed }], Quiet: true } }),
    );

    // Assess
    expect(await isStored(plain)).toBe(false);
    expect(await isStored(streamed)).toBe(false);
    expect(await isStored(checksummed)).toBe(true);
  });

  it('refuses a call signed with the wrong secret, or by an unknown access key, and stores nothing', async () => {
    // Prepare
    const key = newKey('forged.txt');
    const wrongSecret = client({ credentials: { accessKeyId: 'local', secretAccessKey: 'not-local' } });
    const unknownKey = client({ credentials: { accessKeyId: 'someone', secretAccessKey: 'local' } });

    // Act
    const forged = await sdkError(wrongSecret.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'forged' })));
    const unknown = await sdkError(unknownKey.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'forged' })));

    // Assess
    expect(forged.name).toBe('SignatureDoesNotMatch');
    expect(forged.$metadata.httpStatusCode).toBe(403);
    expect(unknown.name).toBe('InvalidAccessKeyId');
    expect(unknown.$metadata.httpStatusCode).toBe(403);
    expect(await isStored(key)).toBe(false);
    wrongSecret.destroy();
    unknownKey.destroy();
  });

  it('refuses a body that is not the one whose SHA-256 was signed, and stores nothing', async () => {
    // Prepare: a PUT signed for 'hello' that sends 'HELLO'.
    const key = newKey('swapped.txt');
    const { host, port } = new URL(s3Local.endpoint);
    const signer = new SignatureV4({
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      region: 'us-east-1',
      service: 's3',
      sha256: Sha256,
      uriEscapePath: false,
    });
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: Number(port),
      path: `/${BUCKET}/${key}`,
      query: {},
      headers: { host, 'x-amz-content-sha256': createHash('sha256').update('hello').digest('hex') },
      body: 'hello',
    });

    // Act
    const answer = await rawRequest(`/${BUCKET}/${key}`, { method: 'PUT', headers: signed.headers, body: 'HELLO' });

    // Assess
    expect(answer.status).toBe(400);
    expect(errorCode(answer.body)).toBe('XAmzContentSHA256Mismatch');
    expect(await isStored(key)).toBe(false);
  });
});

describe('the local S3: presigned POST', () => {
  /** A POST policy as the file routes make one: exact size range and type pinned. */
  async function presignPost(
    key: string,
    options: { min?: number; max?: number; client?: S3Client; fields?: Record<string, string> } = {},
  ) {
    return createPresignedPost(options.client ?? s3, {
      Bucket: BUCKET,
      Key: key,
      Conditions: [
        ['content-length-range', options.min ?? 1, options.max ?? 64],
        ['eq', '$Content-Type', 'text/plain'],
      ],
      Fields: { 'Content-Type': 'text/plain', ...options.fields },
      Expires: 60,
    });
  }

  /** The form a browser sends: the policy's fields (some replaced), then the file last. */
  function form(fields: Record<string, string>, file: string, replace: Record<string, string> = {}): FormData {
    const body = new FormData();
    for (const [name, value] of Object.entries({ ...fields, ...replace })) body.append(name, value);
    body.append('file', new Blob([file]), 'notes.txt');
    return body;
  }

  it('stores a file within the policy, with the pinned type, and answers 204', async () => {
    // Prepare
    const key = newKey('notes.txt');
    const post = await presignPost(key);

    // Act
    const answer = await fetch(post.url, { method: 'POST', body: form(post.fields, 'some notes') });

    // Assess
    expect(answer.status).toBe(204);
    const stored = await readObject(key);
    expect(stored.bytes.toString()).toBe('some notes');
    expect(stored.contentType).toBe('text/plain');
    expect(answer.headers.get('etag')).toBe(stored.etag);
  });

  it('answers 201 with the XML PostResponse and the ETag when the policy asks for it', async () => {
    // Prepare
    const key = newKey('created.txt');
    const post = await presignPost(key, { fields: { success_action_status: '201' } });

    // Act
    const answer = await fetch(post.url, { method: 'POST', body: form(post.fields, 'created') });

    // Assess
    expect(answer.status).toBe(201);
    const body = await answer.text();
    const md5 = createHash('md5').update('created').digest('hex');
    expect(body).toContain(`<Key>${key}</Key>`);
    expect(body).toContain(`<ETag>&quot;${md5}&quot;</ETag>`);
    expect((await readObject(key)).etag).toBe(`"${md5}"`);
  });

  it('refuses a file over the content-length-range with EntityTooLarge, and one under it with EntityTooSmall, storing nothing', async () => {
    // Prepare
    const key = newKey('sized.txt');
    const post = await presignPost(key, { min: 5, max: 10 });

    // Act
    const large = await fetch(post.url, { method: 'POST', body: form(post.fields, '0123456789X') });
    const small = await fetch(post.url, { method: 'POST', body: form(post.fields, '0123') });

    // Assess
    expect(large.status).toBe(400);
    const largeBody = await large.text();
    expect(errorCode(largeBody)).toBe('EntityTooLarge');
    expect(largeBody).toContain('<ProposedSize>11</ProposedSize>');
    expect(small.status).toBe(400);
    expect(errorCode(await small.text())).toBe('EntityTooSmall');
    expect(await isStored(key)).toBe(false);
  });

  it('refuses a file sent with another Content-Type than the policy pins', async () => {
    // Prepare
    const key = newKey('disguised.txt');
    const post = await presignPost(key);

    // Act
    const answer = await fetch(post.url, {
      method: 'POST',
      body: form(post.fields, '<script>', { 'Content-Type': 'text/html' }),
    });

    // Assess
    expect(answer.status).toBe(403);
    const body = await answer.text();
    expect(errorCode(body)).toBe('AccessDenied');
    expect(body).toContain('Invalid according to Policy: Policy Condition failed');
    expect(await isStored(key)).toBe(false);
  });

  it('refuses a tampered policy, a field the policy does not name, and an expired policy', async () => {
    // Prepare
    const key = newKey('policy.txt');
    const post = await presignPost(key, { max: 10 });
    const policy = JSON.parse(Buffer.from(post.fields.Policy ?? '', 'base64').toString('utf8')) as { conditions: unknown[] };
    policy.conditions[0] = ['content-length-range', 1, 1_000_000_000];
    const widened = Buffer.from(JSON.stringify(policy)).toString('base64');
    // A clock an hour behind: the policy expired long before it reaches the bucket.
    const lateClient = client({ systemClockOffset: -3_600_000 });
    const late = await presignPost(key, { client: lateClient });

    // Act
    const tampered = await fetch(post.url, { method: 'POST', body: form(post.fields, 'a larger file', { Policy: widened }) });
    const extra = await fetch(post.url, { method: 'POST', body: form(post.fields, 'ok', { 'x-amz-meta-owner': 'me' }) });
    const expired = await fetch(late.url, { method: 'POST', body: form(late.fields, 'ok') });

    // Assess
    expect(tampered.status).toBe(403);
    expect(errorCode(await tampered.text())).toBe('SignatureDoesNotMatch');
    expect(extra.status).toBe(403);
    expect(await extra.text()).toContain('Extra input fields: x-amz-meta-owner');
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Policy expired');
    expect(await isStored(key)).toBe(false);
    lateClient.destroy();
  });
});

describe('the local S3: multipart uploads', () => {
  const partOf = (index: number, size: number) => new Uint8Array(size).fill(97 + index);
  const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest();

  async function uploadPartFromBrowser(key: string, uploadId: string, partNumber: number, body: Uint8Array<ArrayBuffer>) {
    const url = await getSignedUrl(
      s3,
      new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      {
        expiresIn: 60,
      },
    );
    return fetch(url, { method: 'PUT', body, headers: { Origin: APP_ORIGIN } });
  }

  it('takes parts from presigned URLs, lists them a page at a time, and completes with S3 ETag and bytes', async () => {
    // Prepare
    const key = newKey('archive.zip');
    const { UploadId: uploadId = '' } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ContentType: 'application/zip' }),
    );
    const parts = [0, 1, 2].map((index) => partOf(index, 5 * MIB));

    // Act
    const answers = [];
    for (const [index, part] of parts.entries()) answers.push(await uploadPartFromBrowser(key, uploadId, index + 1, part));
    const firstPage = await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, MaxParts: 2 }));
    const secondPage = await s3.send(
      new ListPartsCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId: uploadId,
        MaxParts: 2,
        PartNumberMarker: firstPage.NextPartNumberMarker,
      }),
    );

    // Assess: the browser reads each part's ETag, as S3's CORS rule exposes it.
    const etags = answers.map((answer) => answer.headers.get('etag'));
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-expose-headers')).toContain('ETag');
      expect(etags[index]).toBe(`"${md5(parts[index] ?? new Uint8Array()).toString('hex')}"`);
    }
    expect(firstPage.Parts?.map((part) => [part.PartNumber, part.Size, part.ETag])).toEqual([
      [1, 5 * MIB, etags[0]],
      [2, 5 * MIB, etags[1]],
    ]);
    expect(firstPage.IsTruncated).toBe(true);
    expect(firstPage.NextPartNumberMarker).toBe('2');
    expect(secondPage.Parts?.map((part) => part.PartNumber)).toEqual([3]);
    expect(secondPage.IsTruncated).toBe(false);

    // Act
    const completed = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: etags.map((etag, index) => ({ PartNumber: index + 1, ETag: etag ?? '' })) },
      }),
    );

    // Assess: S3's multipart ETag is the MD5 of the parts' MD5s and their count.
    const expectedEtag = `"${createHash('md5')
      .update(Buffer.concat(parts.map(md5)))
      .digest('hex')}-3"`;
    expect(completed.ETag).toBe(expectedEtag);
    const stored = await readObject(key);
    expect(stored.etag).toBe(expectedEtag);
    expect(stored.contentType).toBe('application/zip');
    expect(createHash('sha256').update(stored.bytes).digest('hex')).toBe(
      createHash('sha256').update(Buffer.concat(parts)).digest('hex'),
    );
  });

  it('refuses a completion whose parts are too small or whose ETag does not match, as S3 does', async () => {
    // Prepare
    const key = newKey('small-parts.bin');
    const { UploadId: uploadId = '' } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    const etags = [];
    for (const partNumber of [1, 2])
      etags.push((await uploadPartFromBrowser(key, uploadId, partNumber, partOf(partNumber, 10))).headers.get('etag') ?? '');
    const complete = (parts: { PartNumber: number; ETag: string }[]) =>
      sdkError(
        s3.send(
          new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        ),
      );

    // Act
    const tooSmall = await complete([
      { PartNumber: 1, ETag: etags[0] ?? '' },
      { PartNumber: 2, ETag: etags[1] ?? '' },
    ]);
    const wrongEtag = await complete([{ PartNumber: 1, ETag: '"00000000000000000000000000000000"' }]);

    // Assess
    expect(tooSmall.name).toBe('EntityTooSmall');
    expect(wrongEtag.name).toBe('InvalidPart');
    expect(await isStored(key)).toBe(false);
    const parts = await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }));
    expect(parts.Parts).toHaveLength(2);
  });

  it('aborts an upload: its parts are gone, and the upload is then unknown', async () => {
    // Prepare
    const key = newKey('abandoned.bin');
    const { UploadId: uploadId = '' } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    await uploadPartFromBrowser(key, uploadId, 1, partOf(1, 1_000));

    // Act
    const aborted = await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }));

    // Assess
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    const listed = await sdkError(s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId })));
    expect(listed).toBeInstanceOf(NoSuchUpload);
    expect(listed.$metadata.httpStatusCode).toBe(404);
    const abortedAgain = await sdkError(
      s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId })),
    );
    expect(abortedAgain).toBeInstanceOf(NoSuchUpload);
    const latePart = await uploadPartFromBrowser(key, uploadId, 2, partOf(2, 10));
    expect(latePart.status).toBe(404);
    expect(errorCode(await latePart.text())).toBe('NoSuchUpload');
  });

  it('answers NoSuchUpload for an upload id it never gave, or for another key', async () => {
    // Prepare
    const key = newKey('someone-elses.bin');
    const { UploadId: uploadId = '' } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));

    // Act
    const unknown = await sdkError(s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: '0'.repeat(32) })));
    const otherKey = await sdkError(
      s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: newKey('mine.bin'), UploadId: uploadId })),
    );
    const traversal = await sdkError(s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: '../../..' })));

    // Assess
    expect(unknown).toBeInstanceOf(NoSuchUpload);
    expect(otherKey).toBeInstanceOf(NoSuchUpload);
    expect(traversal).toBeInstanceOf(NoSuchUpload);
  });
});

describe('the local S3: CopyObject', () => {
  const put = (key: string, body: string, extra: { ContentType?: string; Metadata?: Record<string, string> } = {}) =>
    s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: 'image/png', ...extra }));
  /** S3 takes the copy source URL-encoded, as `bucket/key`. */
  const sourceOf = (key: string) => `${BUCKET}/${encodeURIComponent(key)}`;

  it('copies the bytes, the type and the metadata to another key, with the MD5 of the bytes as ETag, and keeps the source', async () => {
    // Prepare: a key with characters that must be encoded in the copy source.
    const [source, target] = [newKey('photo, 1?.png'), newKey('copy.png')];
    await put(source, 'png bytes', { Metadata: { owner: 'ada' } });

    // Act
    const copied = await s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: target, CopySource: sourceOf(source) }));

    // Assess
    const md5 = createHash('md5').update('png bytes').digest('hex');
    expect(copied.CopyObjectResult?.ETag).toBe(`"${md5}"`);
    const stored = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: target }));
    expect(await stored.Body?.transformToString()).toBe('png bytes');
    expect(stored.ContentType).toBe('image/png');
    expect(stored.Metadata).toEqual({ owner: 'ada' });
    expect(stored.ETag).toBe(`"${md5}"`);
    expect((await readObject(source)).bytes.toString()).toBe('png bytes');
  });

  it("takes the request's type and metadata with the REPLACE directive, and refuses an unknown directive", async () => {
    // Prepare
    const [source, target] = [newKey('page.png'), newKey('page.html')];
    await put(source, '<html></html>', { Metadata: { owner: 'ada' } });

    // Act
    await s3.send(
      new CopyObjectCommand({
        Bucket: BUCKET,
        Key: target,
        CopySource: sourceOf(source),
        MetadataDirective: 'REPLACE',
        ContentType: 'text/html',
      }),
    );
    const unknown = await sdkError(
      s3.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: newKey('x'),
          CopySource: sourceOf(source),
          MetadataDirective: 'MOVE' as 'COPY',
        }),
      ),
    );

    // Assess
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: target }));
    expect(head.ContentType).toBe('text/html');
    expect(head.Metadata).toEqual({});
    expect(unknown.name).toBe('InvalidArgument');
    expect(unknown.$metadata.httpStatusCode).toBe(400);
  });

  it('copies only while the source still has the ETag given, and answers 412 PreconditionFailed otherwise, writing nothing', async () => {
    // Prepare: the target holds earlier bytes, which a refused copy must leave.
    const [source, target] = [newKey('checked.png'), newKey('kept.png')];
    await put(source, 'checked bytes');
    const checked = (await readObject(source)).etag ?? '';
    await put(source, 'other bytes');
    await put(target, 'earlier bytes');

    // Act
    const stale = await sdkError(
      s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: target, CopySource: sourceOf(source), CopySourceIfMatch: checked })),
    );
    const unchanged = await sdkError(
      s3.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: target,
          CopySource: sourceOf(source),
          CopySourceIfNoneMatch: (await readObject(source)).etag ?? '',
        }),
      ),
    );
    const afterRefusals = await readObject(target);
    const current = (await readObject(source)).etag?.replace(/"/g, '') ?? '';
    const copied = await s3.send(
      new CopyObjectCommand({ Bucket: BUCKET, Key: target, CopySource: sourceOf(source), CopySourceIfMatch: current }),
    );

    // Assess
    expect(stale.name).toBe('PreconditionFailed');
    expect(stale.$metadata.httpStatusCode).toBe(412);
    expect(unchanged.$metadata.httpStatusCode).toBe(412);
    expect(afterRefusals.bytes.toString()).toBe('earlier bytes');
    expect(copied.CopyObjectResult?.ETag).toBe(`"${current}"`);
    expect((await readObject(target)).bytes.toString()).toBe('other bytes');
  });

  it('answers NoSuchKey for a missing source, and refuses a copy onto itself that changes nothing', async () => {
    // Prepare
    const source = newKey('self.png');
    await put(source, 'self');

    // Act
    const missing = await sdkError(
      s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: newKey('y'), CopySource: sourceOf(newKey('never.png')) })),
    );
    const ontoItself = await sdkError(
      s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: source, CopySource: sourceOf(source) })),
    );

    // Assess
    expect(missing.name).toBe('NoSuchKey');
    expect(missing.$metadata.httpStatusCode).toBe(404);
    expect(ontoItself.name).toBe('InvalidRequest');
    expect(ontoItself.$metadata.httpStatusCode).toBe(400);
  });
});

describe('the local S3: CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${s3Local.endpoint}/${BUCKET}/${newKey('cors.bin')}`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' },
    });

  it("answers a preflight from the app's origin with that origin, the methods, the headers and Max-Age", async () => {
    // Act
    const answer = await preflight(APP_ORIGIN);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(answer.headers.get('access-control-allow-methods')?.split(', ')).toEqual(
      expect.arrayContaining(['GET', 'PUT', 'POST', 'HEAD']),
    );
    expect(answer.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.get('vary')).toContain('Origin');
  });

  it('refuses a preflight from another origin with 403 and no CORS headers', async () => {
    // Act
    const answer = await preflight(OTHER_ORIGIN);

    // Assess
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(errorCode(await answer.text())).toBe('AccessForbidden');
  });

  it("exposes the ETag of a PUT to the app's origin only", async () => {
    // Prepare
    const put = async (origin: string) => {
      const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: newKey('exposed.bin') }), { expiresIn: 60 });
      return fetch(url, { method: 'PUT', body: 'bytes', headers: { Origin: origin } });
    };

    // Act
    const fromApp = await put(APP_ORIGIN);
    const fromElsewhere = await put(OTHER_ORIGIN);

    // Assess
    expect(fromApp.status).toBe(200);
    expect(fromApp.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(fromApp.headers.get('access-control-expose-headers')).toBe('ETag, Content-Range, Accept-Ranges');
    expect(fromApp.headers.get('vary')).toContain('Origin');
    expect(fromApp.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the local S3: malformed requests', () => {
  it('answers 4xx to requests no S3 would take, and keeps serving', async () => {
    // Act
    const answers = await Promise.all([
      rawRequest(`/${BUCKET}/%E0%A4%A`),
      rawRequest(`/${BUCKET}/..%2F..%2Fescape.txt`, { method: 'PUT', body: 'x' }),
      rawRequest(`/${BUCKET}/key`, { headers: { Authorization: 'AWS4-HMAC-SHA256 garbage' } }),
      rawRequest(`/${BUCKET}/key`, { headers: { Authorization: 'Bearer token' } }),
      rawRequest(`/${BUCKET}/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=local`),
      rawRequest(`/${BUCKET}`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nbroken',
      }),
      rawRequest(`/${BUCKET}`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'not a form' }),
      rawRequest(`/NOT_A_BUCKET/key`),
    ]);

    // Assess
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(errorCode(answer.body)).toBeTruthy();
    }
    const key = newKey('still-up.txt');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'still up' }));
    expect((await readObject(key)).bytes.toString()).toBe('still up');
  });
});
