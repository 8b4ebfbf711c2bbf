import { TEXT_PREVIEW_BYTES } from '@shared/transfers/previews';

export interface TextPreview {
  readonly text: string;
  /** The file is longer than what is shown. */
  readonly truncated: boolean;
}

export class TextPreviewError extends Error {
  override readonly name = 'TextPreviewError';
}

/**
 * The first 64 KB of a text file, read with a Range GET (a storage that ignores Range answers the
 * whole file, of which the same bytes are read and the rest dropped). The bytes are decoded as
 * UTF-8 without failing: a character cut by the 64 KB boundary is left out, and bytes that are not
 * UTF-8 show as the replacement character.
 */
export async function readTextPreview(url: string, fileSize: number, signal?: AbortSignal): Promise<TextPreview> {
  const limit = TEXT_PREVIEW_BYTES;
  let response: Response;
  try {
    response = await fetch(url, { headers: { Range: `bytes=0-${limit - 1}` }, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TextPreviewError('The preview could not be loaded: the connection failed.');
  }
  // 416: an empty file has no first byte.
  if (response.status === 416) return { text: '', truncated: false };
  if (!response.ok) throw new TextPreviewError(`The preview could not be loaded (${response.status}).`);
  const bytes = await firstBytes(response, limit);
  const truncated = fileSize > limit;
  // `stream: true` keeps a trailing incomplete character back instead of showing it as garbage:
  // it only ever sits at the cut.
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes, { stream: truncated });
  return { text, truncated };
}

async function firstBytes(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer()).subarray(0, limit);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  if (length >= limit) await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(Math.min(length, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset >= bytes.length) break;
  }
  return bytes;
}
