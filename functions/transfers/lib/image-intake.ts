import { formatCount } from '../../../shared/format-count';
import { IMAGE_TYPES, type ImageType, MAX_IMAGE_BYTES } from '../../../shared/transfers/file-rules';
import { BadRequest, HttpError } from '../../lib/errors';
import {
  AddressRefused,
  NameNotResolved,
  ResponseTooLarge,
  SafeFetchError,
  safeFetchBytes,
  TimedOut,
  TooManyRedirects,
  UnexpectedStatus,
} from '../../lib/http/safe-fetch';

/**
 * Images sent by value (avatars, product images): recognised from their bytes alone, whatever
 * name, data: URL or Content-Type came with them, and refused when their header declares a size
 * no one needs (a decompression bomb is a small file that declares a huge canvas).
 */

/** Longest side an image may declare. */
export const MAX_IMAGE_SIDE = 20_000;
/** Most pixels an image may declare (100 megapixels). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Images sent as base64 in a JSON body: decoded bytes. */
export const MAX_BASE64_IMAGE_BYTES = 4 * 1024 * 1024;
/** Deadline for fetching an image by URL: DNS, redirects and body. */
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
const MAX_IMAGE_REDIRECTS = 5;
const IMAGE_ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1';

const ONLY_IMAGES = 'Only PNG, JPEG, GIF, WebP or AVIF images are accepted.';
const NO_SVG = 'SVG images are not accepted: send a PNG, JPEG, GIF, WebP or AVIF image.';
const UNREADABLE =
  'This image could not be read: it may be damaged or incomplete. Only PNG, JPEG, GIF, WebP or AVIF images are accepted.';
const CANNOT_FETCH = 'That address cannot be fetched: only public http and https addresses are.';
const NOT_AN_IMAGE = 'That address did not answer with an image';
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** An image sent by value that is larger than we take: 413, with a message about the image rather than the body. */
export class ImageTooLarge extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `The image is larger than ${megabytes(limitBytes)}.`, { limitBytes });
  }
}

const isImageType = (mime: string): mime is ImageType => (IMAGE_TYPES as readonly string[]).includes(mime);

/*
 * The image libraries are loaded by the first image that needs them, not when the function is
 * imported: a cold start of an upload route that never gets that far (a refused origin, a body
 * over the limit) does not compile them. In a Lambda bundle each is a chunk of its own.
 */
const loadFileType = () => import('file-type/core');
const loadImageSize = () => import('image-size');

/**
 * The image type the bytes are, from their magic numbers and structure (file-type), or null
 * when they are none of IMAGE_TYPES: SVG, HTML, PDF and text are never images here. An
 * animated PNG is a PNG. Asynchronous because file-type's parsers are.
 */
export async function sniffImage(bytes: Uint8Array): Promise<ImageType | null> {
  if (bytes.byteLength === 0) return null;
  const { fileTypeFromBuffer } = await loadFileType();
  let detected: { mime: string } | undefined;
  try {
    detected = await fileTypeFromBuffer(bytes);
  } catch {
    // A parser that trips on malformed input has not recognised an image.
    return null;
  }
  if (!detected) return null;
  const mime = detected.mime === 'image/apng' ? 'image/png' : detected.mime;
  return isImageType(mime) ? mime : null;
}

/** How far into a text file we look for the <svg> root past XML declarations, comments and a doctype. */
const SVG_SCAN_BYTES = 64 * 1024;
/** One leading XML declaration or processing instruction, comment or doctype (with an internal subset). */
const XML_PROLOG_PART = /^(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)\s*/i;

/** True when the bytes are an SVG document (a text whose root element is svg), whatever they claim to be. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SVG_SCAN_BYTES);
  const encoding =
    head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
  // TextDecoder drops the byte order mark.
  let rest = new TextDecoder(encoding).decode(head).trimStart();
  for (let part = XML_PROLOG_PART.exec(rest); part; part = XML_PROLOG_PART.exec(rest)) rest = rest.slice(part[0].length);
  return /^<(?:[\w.-]+:)?svg[\s/>]/i.test(rest);
}

/** image-size's name for each type, to be sure it read the header file-type recognised. */
const SIZE_TYPE: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/**
 * The image's type and declared size, or a BadRequest a person understands: not an image we
 * take, an SVG, a header that cannot be read, or a size over MAX_IMAGE_SIDE a side or
 * MAX_IMAGE_PIXELS in all. Only headers are read: nothing is decoded.
 */
export async function checkedImage(bytes: Uint8Array): Promise<{ type: ImageType; width: number; height: number }> {
  const type = await sniffImage(bytes);
  if (!type) throw new BadRequest(looksLikeSvg(bytes) ? NO_SVG : ONLY_IMAGES);
  // image-size reads through a DataView bounded by the whole underlying buffer, not the view's
  // end, so it must get bytes that own theirs: a truncated header inside a pooled Buffer would
  // otherwise be completed with whatever follows it in memory.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  const { imageSize } = await loadImageSize();
  let size: { width: number; height: number; type?: string };
  try {
    size = imageSize(owned);
  } catch {
    throw new BadRequest(UNREADABLE);
  }
  const { width, height } = size;
  if (size.type !== SIZE_TYPE[type] || !Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1) {
    throw new BadRequest(UNREADABLE);
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new BadRequest(
      `This image is too large (${width} x ${height} px): at most ${formatCount(MAX_IMAGE_SIDE)} px a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
      { width, height },
    );
  }
  return { type, width, height };
}

const DATA_URL = /^data:([^,]*),/i;
/** ASCII whitespace, as in line-wrapped base64; anything else outside the alphabet is refused. */
const WHITESPACE = /[\t\n\f\r ]+/g;

/**
 * The bytes of an image sent as base64 text, plain or as a `data:<type>;base64,` URL (the type
 * it declares is ignored: the bytes say what they are). Line breaks and spaces are fine;
 * anything else outside standard base64, or wrong padding, is a BadRequest; more than
 * MAX_BASE64_IMAGE_BYTES decoded is ImageTooLarge (413).
 */
export function decodeBase64Image(input: string): Uint8Array {
  let text = input.trim();
  const dataUrl = DATA_URL.exec(text);
  if (dataUrl) {
    if (!/;base64$/i.test(dataUrl[1] ?? ''))
      throw new BadRequest('The image must be base64: a data: URL for it ends its type with ;base64.');
    text = text.slice(dataUrl[0].length);
  }
  text = text.replace(WHITESPACE, '');
  if (text.length === 0) throw new BadRequest('No image was sent: the base64 text is empty.');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (Math.floor((text.length * 3) / 4) - padding > MAX_BASE64_IMAGE_BYTES) throw new ImageTooLarge(MAX_BASE64_IMAGE_BYTES);
  const stray = /[^A-Za-z0-9+/=]/.exec(text);
  if (stray) {
    throw new BadRequest(
      `The image is not valid base64: it contains ${JSON.stringify(stray[0])}, and base64 uses only A-Z, a-z, 0-9, + and /, with = at the end.`,
    );
  }
  const bytes = Buffer.from(text, 'base64');
  // Right padding and no stray bits in the last character: the text is exactly these bytes' base64.
  if (text.length % 4 !== 0 || bytes.toString('base64') !== text) {
    throw new BadRequest('The image is not valid base64: its length or its = padding is wrong (was the text cut short?).');
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export interface FetchImageOptions {
  /** The caller giving up (the request ended): the fetch stops and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Only for tests and the local runtime (config.fetchPrivateAddresses): production refuses non-public addresses. */
  allowPrivateAddresses?: boolean;
  /** Tests only: the deadline, IMAGE_FETCH_TIMEOUT_MS by default. */
  timeoutMs?: number;
}

/**
 * The bytes at a URL someone gave as their image, fetched by safeFetchBytes
 * (functions/lib/http/safe-fetch.ts): http(s) only, every address of every redirect public, at
 * most IMAGE_FETCH_TIMEOUT_MS and MAX_IMAGE_BYTES, reading stopped as soon as the body passes
 * the cap. Every refusal is a BadRequest that says why; the caller giving up rejects with its
 * signal's reason. What the bytes are is checkedImage's job.
 */
export async function fetchImage(url: string, options: FetchImageOptions = {}): Promise<Uint8Array> {
  try {
    const { bytes } = await safeFetchBytes(url, {
      accept: IMAGE_ACCEPT,
      maxBytes: MAX_IMAGE_BYTES,
      timeoutMs: options.timeoutMs ?? IMAGE_FETCH_TIMEOUT_MS,
      maxRedirects: MAX_IMAGE_REDIRECTS,
      signal: options.signal,
      allowPrivateAddresses: options.allowPrivateAddresses,
    });
    return bytes;
  } catch (error) {
    throw error instanceof SafeFetchError ? imageFetchRefusal(error) : error;
  }
}

/** What a person is told when the image at their address cannot be fetched. */
function imageFetchRefusal(error: SafeFetchError): BadRequest {
  if (error instanceof AddressRefused) {
    return new BadRequest(error.reason === 'invalid-url' ? `${CANNOT_FETCH} This is not a web address.` : CANNOT_FETCH);
  }
  if (error instanceof NameNotResolved) return new BadRequest(`${NOT_AN_IMAGE}: no server is known by the name ${error.host}.`);
  if (error instanceof TooManyRedirects)
    return new BadRequest(`${NOT_AN_IMAGE}: it redirected more than ${error.maxRedirects} times.`);
  if (error instanceof UnexpectedStatus)
    return new BadRequest(`${NOT_AN_IMAGE} (it answered HTTP ${error.status}).`, { status: error.status });
  if (error instanceof ResponseTooLarge) {
    return new BadRequest(`The image is larger than ${megabytes(error.maxBytes)}.`, { limitBytes: error.maxBytes });
  }
  if (error instanceof TimedOut) return new BadRequest(`${NOT_AN_IMAGE}: it did not answer within ${error.timeoutMs / 1000} s.`);
  return new BadRequest(`${NOT_AN_IMAGE}: it could not be reached.`);
}
