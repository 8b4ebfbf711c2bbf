import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Fetching a URL someone else gave us (a feed, a shared story) without letting them point us at
 * our own network: http(s) only, every address of every hop public, redirects followed by hand
 * so each is checked, time and size capped. The address check happens before fetch resolves the
 * name again, so a DNS answer that changes in between (rebinding) is not caught; the time cap
 * bounds what such a request can do.
 */

export interface SafeFetchOptions {
  /** Only for tests and the local runtime, which serve pages on 127.0.0.1: production refuses non-public addresses. */
  allowPrivateAddresses?: boolean;
  /** Deadline for the whole exchange: DNS, redirects and body. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
  userAgent?: string;
  /** Extra request headers, such as a conditional request's If-None-Match. */
  headers?: Readonly<Record<string, string>>;
  /** Refuse a response whose Content-Type does not pass, before reading its body. */
  acceptContentType?: (contentType: string) => boolean;
  /**
   * Asked before following each redirect: a returned reason stops the fetch with
   * RedirectRefused, before the new address is even resolved.
   */
  refuseRedirect?: (target: URL) => unknown;
}

export interface SafeFetchBytesOptions extends SafeFetchOptions {
  /**
   * The caller giving up (the request it serves ended): the fetch stops, DNS lookup included,
   * and rejects with the signal's reason rather than a SafeFetchError.
   */
  signal?: AbortSignal;
}

export interface SafeFetchBytesResult {
  /** Where the last redirect led. */
  url: string;
  contentType: string;
  /** The body as sent (after any Content-Encoding is undone), in a buffer of its own. */
  bytes: Uint8Array;
  /** The validators a later conditional request can send back, when the server gave them. */
  etag?: string;
  lastModified?: string;
}

export interface SafeFetchResult {
  /** Where the last redirect led. */
  url: string;
  contentType: string;
  body: string;
  /** The validators a later conditional request can send back, when the server gave them. */
  etag?: string;
  lastModified?: string;
}

/** A URL that could not or must not be fetched; the message is safe to log and to show. */
export class SafeFetchError extends Error {
  override readonly name: string = 'SafeFetchError';
}

/**
 * Why an address is refused: it is no URL at all, its scheme is not http or https, or its host
 * is or resolves to an address that is not public.
 */
export type AddressRefusal = 'invalid-url' | 'scheme' | 'non-public';

/** An address (the one asked for or a redirect's) that is never fetched; nothing was sent to it. */
export class AddressRefused extends SafeFetchError {
  override readonly name = 'AddressRefused';
  constructor(
    readonly reason: AddressRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** A host name DNS does not know (or could not answer for); nothing was sent. */
export class NameNotResolved extends SafeFetchError {
  override readonly name = 'NameNotResolved';
  constructor(readonly host: string) {
    super(`Cannot resolve ${host}`);
  }
}

/** A redirect the caller's refuseRedirect turned down, with the reason it gave. */
export class RedirectRefused extends SafeFetchError {
  override readonly name = 'RedirectRefused';
  constructor(
    readonly target: string,
    readonly reason: unknown,
  ) {
    super(`Redirect to ${target} refused`);
  }
}

/** More redirects than maxRedirects in a row. */
export class TooManyRedirects extends SafeFetchError {
  override readonly name = 'TooManyRedirects';
  constructor(readonly maxRedirects: number) {
    super(`More than ${maxRedirects} redirects`);
  }
}

/** The server answered, with a status that is neither success nor redirect. */
export class UnexpectedStatus extends SafeFetchError {
  override readonly name = 'UnexpectedStatus';
  constructor(
    readonly status: number,
    /** Seconds the server asked us to wait (Retry-After), when it said. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

/** A response whose Content-Type the caller's acceptContentType refused; its body was not read. */
export class UnexpectedContentType extends SafeFetchError {
  override readonly name = 'UnexpectedContentType';
  constructor(readonly contentType: string) {
    super(`Unexpected content type ${contentType || '(none)'}`);
  }
}

/** A body larger than maxBytes, announced by its Content-Length or found while reading it (reading stops there). */
export class ResponseTooLarge extends SafeFetchError {
  override readonly name = 'ResponseTooLarge';
  constructor(readonly maxBytes: number) {
    super(`Larger than ${maxBytes} bytes`);
  }
}

/** The whole exchange (DNS, redirects and body) took longer than timeoutMs. */
export class TimedOut extends SafeFetchError {
  override readonly name = 'TimedOut';
  constructor(
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super('Timed out', options);
  }
}

/** Retry-After as seconds from `now`: either delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export const DEFAULT_FETCH_TIMEOUT_MS = 5_000;
export const DEFAULT_FETCH_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
export const USER_AGENT = 'TopPubsBot/1.0 (+https://toppubs.example/about)';

/** safeFetchBytes with the body decoded as UTF-8 text (invalid sequences become U+FFFD). */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const { bytes, ...rest } = await safeFetchBytes(url, options);
  return { ...rest, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}

/**
 * The bytes at `url`, fetched by the rules above. Every refusal or failure is a SafeFetchError
 * (AddressRefused, NameNotResolved, RedirectRefused, TooManyRedirects, UnexpectedStatus,
 * UnexpectedContentType, ResponseTooLarge, TimedOut, or the base class for anything else), except that once the
 * caller's signal has aborted the fetch rejects with its reason.
 */
export async function safeFetchBytes(url: string, options: SafeFetchBytesOptions = {}): Promise<SafeFetchBytesResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  try {
    signal.throwIfAborted();
    let target = parseHttpUrl(url);
    for (let redirects = 0; ; redirects += 1) {
      if (!options.allowPrivateAddresses) await assertPublicHost(target.hostname, signal);
      const response = await fetch(target, {
        redirect: 'manual',
        signal,
        headers: { ...options.headers, accept: options.accept ?? '*/*', 'user-agent': options.userAgent ?? USER_AGENT },
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (redirects >= maxRedirects) throw new TooManyRedirects(maxRedirects);
        target = parseHttpUrl(new URL(location, target).href);
        const refusal = options.refuseRedirect?.(target);
        if (refusal !== undefined) throw new RedirectRefused(target.href, refusal);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new UnexpectedStatus(response.status, parseRetryAfter(response.headers.get('retry-after')));
      }
      const contentType = response.headers.get('content-type') ?? '';
      if (options.acceptContentType && !options.acceptContentType(contentType)) {
        await response.body?.cancel();
        throw new UnexpectedContentType(contentType);
      }
      const bytes = await readCapped(response, options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES);
      const etag = response.headers.get('etag');
      const lastModified = response.headers.get('last-modified');
      return { url: target.href, contentType, bytes, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof SafeFetchError) throw error;
    if (deadline.aborted) throw new TimedOut(timeoutMs, { cause: error });
    throw new SafeFetchError(describeFetchError(error), { cause: error });
  }
}

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AddressRefused('invalid-url', 'Not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new AddressRefused('scheme', 'Only http and https URLs are fetched');
  return parsed;
}

/** Stops reading as soon as the body passes the cap, so a huge or endless response costs little. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new ResponseTooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new ResponseTooLarge(maxBytes);
    }
    chunks.push(read.value);
  }
  // A buffer of its own, not a view into a shared pool (as Buffer.concat may give), so nothing
  // reading through it can run past its end into unrelated memory.
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Loopback, private, carrier-grade NAT, link-local (cloud metadata), multicast and reserved
 * ranges, and the IPv6 forms that carry an IPv4 address a host or router may act on:
 * IPv4-compatible (::/96, which holds :: and ::1 too), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 * IPv4-mapped addresses need no entry: BlockList checks them against the IPv4 ranges. Made on
 * first use, not at import: Node's BlockList loads its binding then, a cold start's half
 * millisecond in every bundle that holds this module, most of which never fetch.
 */
let nonPublic: BlockList | undefined;

function nonPublicRanges(): BlockList {
  nonPublic ??= makeNonPublicRanges();
  return nonPublic;
}

function makeNonPublicRanges(): BlockList {
  const list = new BlockList();
  const ipv4: Array<[string, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  const ipv6: Array<[string, number]> = [
    ['::', 96],
    ['64:ff9b::', 96],
    ['2002::', 16],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ];
  for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

/** BlockList also matches IPv4-mapped IPv6 forms (::ffff:127.0.0.1) against the IPv4 ranges. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublicRanges().check(address, family === 4 ? 'ipv4' : 'ipv6');
}

async function assertPublicHost(hostname: string, signal: AbortSignal): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAll(host, signal);
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw new AddressRefused('non-public', `Refusing ${host}: it resolves to a non-public address`);
  }
}

async function resolveAll(host: string, signal: AbortSignal): Promise<string[]> {
  try {
    return (await untilAborted(lookup(host, { all: true, verbatim: true }), signal)).map((entry) => entry.address);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new NameNotResolved(host);
  }
}

/** A DNS lookup takes no signal: stop waiting for it when the signal aborts (its late answer is dropped). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'Timed out';
  // fetch reports network failures as "fetch failed" with the reason in `cause`.
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause && !error.message.includes(cause) ? `${error.message}: ${cause}` : error.message;
}
