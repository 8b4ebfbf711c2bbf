import { formatCount } from '../../../shared/format-count';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value, safe wherever it lands in the markup: everything people write passes through here. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * JSON to sit inside `<script type="application/json">`. The element's text ends at the first
 * `</script`, and `<!--` changes how it is parsed, so every `<` is written as its JSON escape,
 * which reads back as the same string; U+2028 and U+2029 likewise, for any reader that takes
 * the block for JavaScript. JSON has `<` nowhere but inside strings, so nothing else changes.
 */
export function jsonForHtml(json: string): string {
  return json.replace(/[<\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function plural(count: number, word: string): string {
  return `${formatCount(count)} ${count === 1 ? word : `${word}s`}`;
}
