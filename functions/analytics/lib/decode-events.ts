import { BadRequest } from '../../lib/errors';

/**
 * What mixpanel-browser sends in its form field `data`: the JSON of one event or of an array of
 * them, base64-encoded by default (its `api_payload_format`), plain with 'json'. Both are read;
 * anything that is neither is refused whole (400: mixpanel drops that batch instead of retrying
 * a request that can never succeed).
 */
export function decodeEvents(data: string): unknown[] {
  const trimmed = data.trim();
  const json = trimmed.startsWith('{') || trimmed.startsWith('[') ? trimmed : fromBase64(trimmed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new BadRequest('`data` is neither JSON nor base64-encoded JSON.');
  }
  if (Array.isArray(parsed)) return parsed;
  if (parsed !== null && typeof parsed === 'object') return [parsed];
  throw new BadRequest('`data` must hold an event or an array of events.');
}

// Standard alphabet (mixpanel's encoder), padding optional.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function fromBase64(text: string): string {
  // A form decoder reads an unescaped '+' as a space: base64 never holds a space, so it was a '+'.
  const base64 = text.replace(/ /g, '+');
  if (base64 === '' || !BASE64.test(base64)) throw new BadRequest('`data` is neither JSON nor base64-encoded JSON.');
  return Buffer.from(base64, 'base64').toString('utf8');
}
