import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkedImage,
  decodeBase64Image,
  fetchImage,
  ImageTooLarge,
  MAX_BASE64_IMAGE_BYTES,
  sniffImage,
} from '../../functions/transfers/lib/image-intake';
import { BadRequest } from '../../functions/lib/errors';

/** Real images, made by Chromium's canvas (PNG, JPEG, WebP 3x2) or the usual browser feature tests (GIF, WebP 1x1, AVIF 2x2), each decoded by Chromium. */
const IMAGES = {
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEklEQVR4AWI6Y2z8H4aZGJAAAAAA///qnsSoAAAABklEQVQDAH+1BpjuJVuvAAAAAElFTkSuQmCC',
  jpeg: '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwX/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCYACs//9k=',
  webp: 'UklGRhYCAABXRUJQVlA4WAoAAAAgAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggKAAAAHABAJ0BKgMAAgAEAGgloAJ0AUAAAP7kAXXFzZEUf/EOfy5fxBX8AAA=',
  webpSimple: 'UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA',
  gif: 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  avif: 'AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUIAAADybWV0YQAAAAAAAAAoaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAGxpYmF2aWYAAAAADnBpdG0AAAAAAAEAAAAeaWxvYwAAAABEAAABAAEAAAABAAABGgAAAB0AAAAoaWluZgAAAAAAAQAAABppbmZlAgAAAAABAABhdjAxQ29sb3IAAAAAamlwcnAAAABLaXBjbwAAABRpc3BlAAAAAAAAAAIAAAACAAAAEHBpeGkAAAAAAwgICAAAAAxhdjFDgQ0MAAAAABNjb2xybmNseAACAAIAAYAAAAAXaXBtYQAAAAAAAAABAAEEAQKDBAAAACVtZGF0EgAKCBgANogQEAwgMg8f8D///8WfhwB8+ErK42A=',
};
const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
const textBytes = (text: string) => new TextEncoder().encode(text);

const ONLY_IMAGES = /Only PNG, JPEG, GIF, WebP or AVIF images/;
const NO_SVG = /SVG images are not accepted/;

/** CRC-32 as PNG chunks carry it, so a PNG with a changed header is still well-formed. */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** The real 3x2 PNG with its IHDR declaring another size (and a correct checksum). */
function pngDeclaring(width: number, height: number): Uint8Array {
  const png = bytesOf(IMAGES.png);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(png.subarray(12, 29)));
  return png;
}

/** The real 3x2 JPEG with its frame header (SOF0) declaring another size. */
function jpegDeclaring(width: number, height: number): Uint8Array {
  const jpeg = bytesOf(IMAGES.jpeg);
  const sof = jpeg.findIndex((byte, index) => byte === 0xff && jpeg[index + 1] === 0xc0);
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  view.setUint16(sof + 5, height);
  view.setUint16(sof + 7, width);
  return jpeg;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('Expected a rejection');
  return outcome;
}

function thrown(act: () => unknown): Error {
  try {
    act();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('Expected a throw');
}

describe('checkedImage', () => {
  it.each([
    ['a PNG', IMAGES.png, 'image/png', 3, 2],
    ['a JPEG', IMAGES.jpeg, 'image/jpeg', 3, 2],
    ['a WebP with a colour profile', IMAGES.webp, 'image/webp', 3, 2],
    ['a plain lossy WebP', IMAGES.webpSimple, 'image/webp', 1, 1],
    ['a GIF', IMAGES.gif, 'image/gif', 1, 1],
    ['an AVIF', IMAGES.avif, 'image/avif', 2, 2],
  ])('recognises %s from its bytes and reads its size', async (_label, base64, type, width, height) => {
    // Prepare
    const bytes = bytesOf(base64);

    // Act
    const sniffed = await sniffImage(bytes);
    const checked = await checkedImage(bytes);

    // Assess
    expect(sniffed).toBe(type);
    expect(checked).toEqual({ type, width, height });
  });

  it('refuses a text file named .png, and a PNG signature followed by text', async () => {
    // Prepare
    const notes = textBytes('Shopping list: eggs, milk, a new avatar.\n');
    const signature = bytesOf(IMAGES.png).subarray(0, 8);
    const disguised = new Uint8Array([...signature, ...textBytes('this is no image at all, just words after a PNG signature')]);

    // Act
    const [plain, fake] = await Promise.all([rejection(checkedImage(notes)), rejection(checkedImage(disguised))]);

    // Assess
    expect(await sniffImage(notes)).toBeNull();
    expect(plain).toBeInstanceOf(BadRequest);
    expect(plain.message).toMatch(ONLY_IMAGES);
    expect(fake).toBeInstanceOf(BadRequest);
    expect(fake.message).toMatch(ONLY_IMAGES);
  });

  it('refuses a PNG cut off inside its header, even when more bytes follow it in memory', async () => {
    // Prepare: the first 20 bytes, a view on the whole image's memory (as a pooled Buffer is)
    const truncated = bytesOf(IMAGES.png).subarray(0, 20);

    // Act
    const error = await rejection(checkedImage(truncated));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/This image could not be read/);
  });

  it.each([
    ['a bare SVG', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'],
    [
      'an SVG with an XML declaration, a comment and a doctype',
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY x "y"> ]>\n<svg version="1.1"><rect/></svg>',
    ],
    ['an SVG with a namespace prefix', '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>'],
  ])('refuses %s, saying SVG is not accepted', async (_label, svg) => {
    // Prepare
    const bytes = textBytes(svg);

    // Act
    const error = await rejection(checkedImage(bytes));

    // Assess
    expect(await sniffImage(bytes)).toBeNull();
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(NO_SVG);
  });

  it('refuses an SVG sent as a data: URL that claims to be a PNG', async () => {
    // Prepare
    const claim = `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;

    // Act
    const error = await rejection(checkedImage(decodeBase64Image(claim)));

    // Assess
    expect(error.message).toMatch(NO_SVG);
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html><head><title>Avatar</title></head><body><img src="x.png"></body></html>'],
    ['an HTML page drawing an inline SVG', '<html><body><svg><circle r="4"/></svg></body></html>'],
    ['a PDF', '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'],
  ])('refuses %s as not an image', async (_label, text) => {
    // Act
    const error = await rejection(checkedImage(textBytes(text)));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(ONLY_IMAGES);
  });

  it.each([
    ['a PNG declaring 100000 x 100000 px', pngDeclaring(100_000, 100_000), '100000 x 100000 px'],
    ['a PNG 20001 px wide', pngDeclaring(20_001, 1), '20001 x 1 px'],
    ['a PNG of 225 megapixels, each side under the limit', pngDeclaring(15_000, 15_000), '15000 x 15000 px'],
    ['a JPEG declaring 30000 x 2 px', jpegDeclaring(30_000, 2), '30000 x 2 px'],
  ])('refuses %s as too large, saying its size', async (_label, bytes, size) => {
    // Act
    const error = await rejection(checkedImage(bytes));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toContain(`This image is too large (${size})`);
  });

  it('accepts an image exactly at the limits: 20000 px a side and 100 megapixels', async () => {
    // Act
    const checked = await checkedImage(pngDeclaring(20_000, 5_000));

    // Assess
    expect(checked).toEqual({ type: 'image/png', width: 20_000, height: 5_000 });
  });
});

describe('decodeBase64Image', () => {
  it('decodes plain base64 and a data: URL to the same bytes, whatever type the URL declares', async () => {
    // Prepare
    const expected = bytesOf(IMAGES.png);

    // Act
    const plain = decodeBase64Image(IMAGES.png);
    const dataUrl = decodeBase64Image(`data:image/png;base64,${IMAGES.png}`);
    const mislabelled = decodeBase64Image(`DATA:image/gif;charset=binary;BASE64,${IMAGES.png}`);

    // Assess
    expect(plain).toEqual(expected);
    expect(dataUrl).toEqual(expected);
    expect(mislabelled).toEqual(expected);
    expect((await checkedImage(mislabelled)).type).toBe('image/png');
  });

  it('tolerates line breaks, tabs and spaces around and inside the text', () => {
    // Prepare
    const wrapped = `\n  ${IMAGES.jpeg.replace(/(.{76})/g, '$1\r\n')}\t \n`;

    // Act
    const bytes = decodeBase64Image(`data:image/jpeg;base64,${wrapped}`);

    // Assess
    expect(bytes).toEqual(bytesOf(IMAGES.jpeg));
  });

  it.each([
    ['a percent sign', `${IMAGES.gif.slice(0, 8)}%${IMAGES.gif.slice(9)}`, '"%"'],
    ['base64url letters', IMAGES.jpeg.replaceAll('/', '_'), '"_"'],
    ['a non-breaking space', `${IMAGES.gif.slice(0, 8)}\u00a0${IMAGES.gif.slice(8)}`, '"\u00a0"'],
  ])('refuses text with %s, naming the character', (_label, text, shown) => {
    // Act
    const error = thrown(() => decodeBase64Image(text));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/not valid base64/);
    expect(error.message).toContain(shown);
  });

  it.each([
    ['missing padding', IMAGES.avif.replace(/=+$/, '')],
    ['too much padding', `${IMAGES.png}=`],
    ['padding in the middle', `QQ==${IMAGES.png}`],
    ['a cut-off last group', IMAGES.gif.slice(0, -1)],
    ['stray bits in the last character', 'QR=='],
  ])('refuses text with %s', (_label, text) => {
    // Act
    const error = thrown(() => decodeBase64Image(text));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/not valid base64: its length or its = padding is wrong/);
  });

  it('refuses empty text and a data: URL that is not base64', () => {
    // Act
    const empty = thrown(() => decodeBase64Image(' \n '));
    const emptyUrl = thrown(() => decodeBase64Image('data:image/png;base64,'));
    const percentEncoded = thrown(() => decodeBase64Image('data:image/svg+xml,%3Csvg%2F%3E'));

    // Assess
    expect(empty).toBeInstanceOf(BadRequest);
    expect(empty.message).toMatch(/No image was sent/);
    expect(emptyUrl.message).toMatch(/No image was sent/);
    expect(percentEncoded).toBeInstanceOf(BadRequest);
    expect(percentEncoded.message).toMatch(/must be base64/);
  });

  it('accepts 4 MB of image and refuses one byte more with a 413', () => {
    // Prepare
    const atLimit = Buffer.alloc(MAX_BASE64_IMAGE_BYTES, 7).toString('base64');
    const overLimit = Buffer.alloc(MAX_BASE64_IMAGE_BYTES + 1, 7).toString('base64');

    // Act
    const decoded = decodeBase64Image(atLimit);
    const error = thrown(() => decodeBase64Image(`data:image/png;base64,${overLimit}`));

    // Assess
    expect(decoded.byteLength).toBe(MAX_BASE64_IMAGE_BYTES);
    expect(error).toBeInstanceOf(ImageTooLarge);
    expect(error).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The image is larger than 4 MB.' });
  });
});

describe('fetchImage', () => {
  type Handler = (request: IncomingMessage, response: ServerResponse) => void;
  const servers: Array<{ close: () => void }> = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  /** A web server on loopback answering with `handler`; counts the requests it gets. */
  async function serve(handler: Handler) {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () => {
        server.close();
        server.closeAllConnections();
      },
    });
    const { port } = server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, port, seen };
  }

  const loopback = { allowPrivateAddresses: true };
  const MiB = 1024 * 1024;

  it('answers the bytes of an image, whatever Content-Type the server gives, after following a redirect', async () => {
    // Prepare
    const png = Buffer.from(IMAGES.png, 'base64');
    const { origin, seen } = await serve((request, response) => {
      if (request.url === '/avatar') response.writeHead(302, { location: '/files/avatar.bin' }).end();
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png);
    });

    // Act
    const bytes = await fetchImage(`${origin}/avatar`, loopback);

    // Assess
    expect(bytes).toEqual(new Uint8Array(png));
    expect(await checkedImage(bytes)).toEqual({ type: 'image/png', width: 3, height: 2 });
    expect(seen).toEqual(['/avatar', '/files/avatar.bin']);
  });

  it.each([404, 500])('refuses an address that answers HTTP %i', async (status) => {
    // Prepare
    const { origin } = await serve((_request, response) =>
      response.writeHead(status, { 'content-type': 'text/html' }).end('<h1>Oops</h1>'),
    );

    // Act
    const error = await rejection(fetchImage(`${origin}/missing.png`, loopback));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toBe(`That address did not answer with an image (it answered HTTP ${status}).`);
  });

  it.each([
    ['streamed without a length', false],
    ['announced by its Content-Length', true],
  ])('refuses an image of 11 MB %s', async (_label, announced) => {
    // Prepare
    const body = Buffer.alloc(11 * MiB, 1);
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, {
        'content-type': 'image/png',
        ...(announced ? { 'content-length': String(body.byteLength) } : {}),
      });
      response.end(body);
    });

    // Act
    const error = await rejection(fetchImage(`${origin}/big.png`, loopback));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toBe('The image is larger than 10 MB.');
  });

  it('counts the cap after decompression, so a small gzip bomb is refused too', async () => {
    // Prepare: 11 MB of zeros, about 11 KB on the wire
    const bomb = gzipSync(Buffer.alloc(11 * MiB));
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, {
        'content-type': 'image/png',
        'content-encoding': 'gzip',
        'content-length': String(bomb.byteLength),
      });
      response.end(bomb);
    });

    // Act
    const error = await rejection(fetchImage(`${origin}/small.png`, loopback));

    // Assess
    expect(bomb.byteLength).toBeLessThan(MiB);
    expect(error.message).toBe('The image is larger than 10 MB.');
  });

  it('stops reading an endless answer soon after 10 MB and hangs up', async () => {
    // Prepare: a server that would send 256 MB, as fast as it is read
    const chunk = Buffer.alloc(64 * 1024, 2);
    let written = 0;
    let hungUp!: () => void;
    const closed = new Promise<void>((resolve) => {
      hungUp = resolve;
    });
    const { origin } = await serve((_request, response) => {
      response.on('close', hungUp);
      response.on('error', () => undefined);
      response.writeHead(200, { 'content-type': 'image/gif' });
      const pump = () => {
        while (written < 256 * MiB && !response.destroyed) {
          written += chunk.byteLength;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });

    // Act
    const error = await rejection(fetchImage(`${origin}/endless.gif`, loopback));
    await closed;

    // Assess: what was sent is the cap plus what the sockets buffer, far from all of it
    expect(error.message).toBe('The image is larger than 10 MB.');
    expect(written).toBeGreaterThan(10 * MiB);
    expect(written).toBeLessThan(64 * MiB);
  });

  it('refuses, within its deadline, an address that never answers', async () => {
    // Prepare
    const { origin } = await serve(() => undefined);
    const started = Date.now();

    // Act
    const error = await rejection(fetchImage(`${origin}/slow.png`, { ...loopback, timeoutMs: 300 }));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toBe('That address did not answer with an image: it did not answer within 0.3 s.');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops when the caller gives up, with the caller reason rather than a 400', async () => {
    // Prepare
    const { origin } = await serve(() => undefined);
    const caller = new AbortController();
    const reason = new Error('request ended');
    setTimeout(() => caller.abort(reason), 50);

    // Act
    const error = await rejection(fetchImage(`${origin}/slow.png`, { ...loopback, signal: caller.signal }));

    // Assess
    expect(error).toBe(reason);
  });

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/a.png`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/a.png`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/a.png`],
    ['an IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/a.png`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private network address', () => 'http://10.0.0.1/a.png'],
  ])('refuses %s when private addresses are not allowed, before any request', async (_label, address) => {
    // Prepare
    const { port, seen } = await serve((_request, response) => response.end(Buffer.from(IMAGES.png, 'base64')));

    // Act
    const error = await rejection(fetchImage(address(port), {}));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/^That address cannot be fetched/);
    expect(seen).toEqual([]);
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/a.png',
    'javascript:alert(1)',
    `data:image/png;base64,${IMAGES.png}`,
    'not an address',
  ])('refuses %s: not an http or https address', async (address) => {
    // Act
    const error = await rejection(fetchImage(address, loopback));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/^That address cannot be fetched/);
  });

  it('refuses a redirect to an address that cannot be fetched', async () => {
    // Prepare
    const { origin } = await serve((_request, response) => response.writeHead(301, { location: 'file:///etc/passwd' }).end());

    // Act
    const error = await rejection(fetchImage(`${origin}/moved.png`, loopback));

    // Assess
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.message).toMatch(/^That address cannot be fetched/);
  });

  it('refuses an address that redirects in circles', async () => {
    // Prepare
    const { origin, seen } = await serve((request, response) =>
      response.writeHead(302, { location: request.url === '/a' ? '/b' : '/a' }).end(),
    );

    // Act
    const error = await rejection(fetchImage(`${origin}/a`, loopback));

    // Assess
    expect(error.message).toBe('That address did not answer with an image: it redirected more than 5 times.');
    expect(seen).toHaveLength(6);
  });
});
