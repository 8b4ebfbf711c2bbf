import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, unlink } from 'node:fs/promises';
import { Agent, type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { S3Error } from './errors';
import { MultipartStore } from './multipart-store';
import { encodeKey } from './protocol';
import { type PayloadExpectation, PayloadVerifier } from './signatures';

/** A CompleteMultipartUpload body for 10,000 parts is about 1 MB. */
export const MAX_XML_BODY_BYTES = 2 * 1_048_576;

/** A file of the gateway's own, for a body that must be checked whole before s3rver may store it. */
export interface Spooled {
  path: string;
  /** Bytes in the file. */
  size: number;
  /** Bytes the stream had, kept or not. */
  received: number;
}

/** Where s3rver listens, once it is started: s3-local.ts starts it for the first request that reaches it. */
export type Upstream = () => Promise<{ host: string; port: number }>;

/** An object of a bucket. */
export interface ObjectName {
  bucket: string;
  key: string;
}

/**
 * Turns per object: work on a set of names runs once every earlier holder of any of them is done.
 * Names are taken in sorted order, so two holders of overlapping sets never wait on each other.
 */
class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(names: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const name of [...new Set(names)].sort()) {
        const previous = this.tails.get(name) ?? Promise.resolve();
        let release!: () => void;
        const done = new Promise<void>((resolve) => {
          release = resolve;
        });
        const tail = previous.then(() => done);
        this.tails.set(name, tail);
        releases.push(() => {
          release();
          if (this.tails.get(name) === tail) this.tails.delete(name);
        });
        await previous;
      }
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }
}

/** A small body, whole, checked against what its signature promised when it promised something. */
export async function readAll(stream: Readable, limit: number, expectation?: PayloadExpectation): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const collector = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit) return callback(new S3Error('MaxMessageLengthExceeded', 'Your request was too big.', 400));
      chunks.push(chunk);
      callback();
    },
  });
  if (expectation) await pipeline(stream, new PayloadVerifier(expectation), collector);
  else await pipeline(stream, collector);
  return Buffer.concat(chunks);
}

/**
 * The objects and multipart uploads. s3rver keeps them, in its directory, the one store: the
 * gateway reads and writes objects through s3rver's port, and uploads in that directory
 * (`uploads`). Bodies wait whole in spool files beside it until checked. Writes to an object
 * and copies from it take turns per key (`holding`), so a copy's condition holds for the bytes
 * it copies, as S3's does.
 */
export class ObjectStore {
  readonly uploads: MultipartStore;
  private readonly locks = new KeyLocks();
  // A fresh loopback connection per request: a kept-alive one that s3rver closes just as it is
  // reused would fail a request that did nothing wrong.
  private readonly agent = new Agent({ keepAlive: false });

  private constructor(
    private readonly upstream: Upstream,
    directory: string,
    private readonly spoolDirectory: string,
  ) {
    this.uploads = new MultipartStore(directory);
  }

  /** The store of s3rver listening at `upstream` with `directory`; spool files left by a crash are of no use and go. */
  static async open(upstream: Upstream, directory: string): Promise<ObjectStore> {
    // Beside s3rver's directory (inside it, every folder is listed as a bucket), on the same disk:
    // the system's temporary directory may be memory.
    const spoolDirectory = `${directory.replace(/[\\/]+$/, '')}.incoming`;
    await rm(spoolDirectory, { recursive: true, force: true });
    await mkdir(spoolDirectory, { recursive: true });
    return new ObjectStore(upstream, directory, spoolDirectory);
  }

  /** Runs `work` once no other holder of these objects is at work on them. */
  holding<T>(objects: readonly ObjectName[], work: () => Promise<T>): Promise<T> {
    return this.locks.run(
      objects.map(({ bucket, key }) => `${bucket}/${key}`),
      work,
    );
  }

  /** A request to s3rver, as it is; its answer's head once it comes. */
  async send(
    method: string,
    path: string,
    headers: OutgoingHttpHeaders,
    body: Readable | Buffer | undefined,
  ): Promise<IncomingMessage> {
    let address: { host: string; port: number };
    try {
      address = await this.upstream();
    } catch (error) {
      throw new S3Error('ServiceUnavailable', (error as Error).message, 503);
    }
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({ ...address, method, path, headers, agent: this.agent }, resolve);
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ECONNREFUSED'
            ? new S3Error('ServiceUnavailable', 'The local S3 store (s3rver) cannot be reached.', 503)
            : error,
        ),
      );
      if (body === undefined) outgoing.end();
      else if (Buffer.isBuffer(body)) outgoing.end(body);
      // A failed body stream destroys the outgoing request, whose error rejects above.
      else pipeline(body, outgoing).catch(() => undefined);
    });
  }

  /** A spooled body stored by s3rver under the key; its ETag, unquoted. */
  async put({ bucket, key }: ObjectName, headers: OutgoingHttpHeaders, spooled: Spooled): Promise<string> {
    const upstream = await this.send('PUT', `/${bucket}/${encodeKey(key)}`, headers, createReadStream(spooled.path));
    const answer = await readAll(upstream, MAX_XML_BODY_BYTES);
    const etag = upstream.headers.etag;
    if (upstream.statusCode !== 200 || !etag) {
      throw new S3Error('InternalError', `s3rver did not store the object: ${answer.toString('utf8').slice(0, 200)}`, 500);
    }
    return etag.replace(/"/g, '');
  }

  /** The object as s3rver answers a GET of it; NoSuchBucket or NoSuchKey when it is not there. */
  async get({ bucket, key }: ObjectName, host: string): Promise<IncomingMessage> {
    const upstream = await this.send('GET', `/${bucket}/${encodeKey(key)}`, { host }, undefined);
    if (upstream.statusCode === 200) return upstream;
    const answer = (await readAll(upstream, MAX_XML_BODY_BYTES)).toString('utf8');
    const code = /<Code>([^<]*)<\/Code>/.exec(answer)?.[1];
    if (code === 'NoSuchBucket') {
      throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket });
    }
    if (upstream.statusCode === 404) throw new S3Error('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
    throw new S3Error('InternalError', `s3rver did not read the copy source: ${answer.slice(0, 200)}`, 500);
  }

  /**
   * Writes a stream to a spool file, checked on the way when an expectation is given; past
   * `keepAtMost` bytes it only counts them. A stream that fails leaves no file.
   */
  async spool(
    stream: Readable,
    how: { keepAtMost?: number; expectation?: PayloadExpectation | undefined } = {},
  ): Promise<Spooled> {
    const keepAtMost = how.keepAtMost ?? Number.POSITIVE_INFINITY;
    const path = join(this.spoolDirectory, randomBytes(12).toString('hex'));
    let size = 0;
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        received += chunk.length;
        const kept = chunk.subarray(0, Math.max(0, keepAtMost - size));
        size += kept.length;
        callback(null, kept);
      },
    });
    try {
      if (how.expectation) await pipeline(stream, new PayloadVerifier(how.expectation), counter, createWriteStream(path));
      else await pipeline(stream, counter, createWriteStream(path));
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return { path, size, received };
  }

  /** Forgets a spool file, whether or not it is still there. */
  async discard(spooled: Spooled): Promise<void> {
    await unlink(spooled.path).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.agent.destroy();
    await rm(this.spoolDirectory, { recursive: true, force: true });
  }
}
