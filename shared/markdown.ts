/**
 * The one Markdown renderer of people's text (story comments): the API's answers, the
 * server-rendered pages, the mails and the browser all render with it, so they cannot disagree
 * on what is safe. A small subset, as Hacker News and Lobsters allow:
 * - paragraphs (blank lines between), block quotes (`> `), fenced code blocks (``` or ~~~);
 * - *emphasis*, **strong** (or with `_`), `inline code`, [links](https://…) and bare
 *   http(s) addresses, `\` before punctuation to write it as it is.
 *
 * Safe by construction rather than by cleaning: every character of the input is written
 * escaped, and the only markup in the output is what this file writes itself (p, blockquote,
 * pre, code, em, strong, a). Raw HTML in the input is text. A link's address must parse as an
 * absolute http, https or mailto URL (so `javascript:`, `data:`, `vbscript:` and relative
 * addresses stay text), is written as the URL parser normalised it, and every link has
 * rel="nofollow ugc noopener". Pure, no dependencies: it runs in Node and in the browser.
 */

/** The tags the renderer may write: tests check the output holds no other. */
export const MARKDOWN_TAGS = ['p', 'blockquote', 'pre', 'code', 'em', 'strong', 'a'] as const;

/** Every link's rel: not endorsed, written by users, no handle on the opening page. */
export const USER_LINK_REL = 'nofollow ugc noopener';

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
/** Quotes in quotes and emphasis in emphasis stop here: deeper markers are text. */
const MAX_NESTING = 6;
/** What a backslash escapes (CommonMark's ASCII punctuation). */
const ESCAPABLE = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** Characters a bare address does not end with: the sentence's punctuation around it. */
const TRAILING_PUNCTUATION = /[.,;:!?'")\]]+$/;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a quoted attribute value: nothing in it can open markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);
}

/**
 * The address a link may point to, normalised by the URL parser (which also drops the tabs and
 * newlines that hide a `javascript:`), or null when it is not an absolute http(s) or mailto URL.
 */
export function safeLinkHref(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
}

const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" rel="${USER_LINK_REL}">${label}</a>`;

/** Markdown source (a comment's body) as HTML of the subset above. */
export function renderMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD').split('\n');
  return renderBlocks(lines, 0);
}

const isBlank = (line: string) => line.trim() === '';
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}>/;

function renderBlocks(lines: readonly string[], depth: number): string {
  const blocks: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (isBlank(line)) {
      index += 1;
      continue;
    }
    const fence = FENCE.exec(line)?.[1];
    if (fence) {
      const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !closing.test(lines[index] as string)) {
        code.push(lines[index] as string);
        index += 1;
      }
      // Past the closing fence (an unclosed block runs to the end, as in CommonMark).
      index += 1;
      blocks.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (QUOTE.test(line) && depth < MAX_NESTING) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index] as string)) {
        quoted.push((lines[index] as string).replace(/^ {0,3}> ?/, ''));
        index += 1;
      }
      blocks.push(`<blockquote>${renderBlocks(quoted, depth + 1)}</blockquote>`);
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length) {
      const next = lines[index] as string;
      if (isBlank(next) || FENCE.test(next) || (paragraph.length > 0 && QUOTE.test(next) && depth < MAX_NESTING)) break;
      paragraph.push(next.trim());
      index += 1;
    }
    blocks.push(`<p>${renderInline(paragraph.join('\n'), 0, false)}</p>`);
  }
  return blocks.join('\n');
}

const isWhitespace = (character: string | undefined) => character === undefined || /\s/.test(character);
const isWordCharacter = (character: string | undefined) => character !== undefined && /[\p{L}\p{N}]/u.test(character);

function renderInline(text: string, depth: number, inLink: boolean): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '\\' && ESCAPABLE.has(text[index + 1] ?? '')) {
      out += escapeHtml(text[index + 1] as string);
      index += 2;
      continue;
    }
    if (character === '`') {
      const code = codeSpanAt(text, index);
      if (code) {
        out += `<code>${escapeHtml(code.content)}</code>`;
        index = code.end;
      } else {
        const run = backtickRunAt(text, index);
        out += '`'.repeat(run);
        index += run;
      }
      continue;
    }
    if (!inLink && depth < MAX_NESTING) {
      const found = character === '[' ? markdownLinkAt(text, index) : bareLinkAt(text, index);
      if (found) {
        out += link(found.href, found.label === null ? escapeHtml(found.text) : renderInline(found.label, depth + 1, true));
        index = found.end;
        continue;
      }
    }
    if ((character === '*' || character === '_') && depth < MAX_NESTING) {
      const emphasis = emphasisAt(text, index);
      if (emphasis) {
        const tag = emphasis.strong ? 'strong' : 'em';
        out += `<${tag}>${renderInline(emphasis.inner, depth + 1, inLink)}</${tag}>`;
        index = emphasis.end;
        continue;
      }
    }
    out += escapeHtml(character);
    index += 1;
  }
  return out;
}

function backtickRunAt(text: string, start: number): number {
  let end = start;
  while (text[end] === '`') end += 1;
  return end - start;
}

/** A code span opened by the backtick run at `start` and closed by the next run of the same length. */
function codeSpanAt(text: string, start: number): { content: string; end: number } | null {
  const run = backtickRunAt(text, start);
  let search = start + run;
  while (search < text.length) {
    const next = text.indexOf('`', search);
    if (next < 0) return null;
    const length = backtickRunAt(text, next);
    if (length === run) {
      let content = text.slice(start + run, next).replace(/\n/g, ' ');
      if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ')) content = content.slice(1, -1);
      return { content, end: next + run };
    }
    search = next + length;
  }
  return null;
}

interface FoundLink {
  href: string;
  /** Markdown of the link's text, or null for a bare address (its text is `text`). */
  label: string | null;
  text: string;
  end: number;
}

/** `[label](address)` at `start`, when the address is one a link may have. */
function markdownLinkAt(text: string, start: number): FoundLink | null {
  let depth = 0;
  let index = start;
  for (; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') index += 1;
    else if (character === '[') depth += 1;
    else if (character === ']' && --depth === 0) break;
  }
  if (index >= text.length || text[index + 1] !== '(') return null;
  const labelEnd = index;
  let parens = 0;
  for (index = labelEnd + 2; index < text.length; index += 1) {
    const character = text[index] as string;
    if (isWhitespace(character) || character === '<') return null;
    if (character === '(') parens += 1;
    else if (character === ')' && parens-- === 0) break;
  }
  if (index >= text.length) return null;
  const href = safeLinkHref(text.slice(labelEnd + 2, index));
  const label = text.slice(start + 1, labelEnd);
  if (!href || label.trim() === '') return null;
  return { href, label, text: label, end: index + 1 };
}

/** A bare http(s) address at `start`, not inside a word, without the punctuation after it. */
function bareLinkAt(text: string, start: number): FoundLink | null {
  if (text[start] !== 'h' || isWordCharacter(text[start - 1])) return null;
  const rest = text.slice(start, start + 8).toLowerCase();
  if (!rest.startsWith('http://') && !rest.startsWith('https://')) return null;
  let end = start;
  while (end < text.length && !isWhitespace(text[end]) && text[end] !== '<' && text[end] !== '`') end += 1;
  const address = text.slice(start, end).replace(TRAILING_PUNCTUATION, '');
  const href = safeLinkHref(address);
  if (!href || address.length <= 'https://'.length) return null;
  return { href, label: null, text: address, end: start + address.length };
}

/**
 * `*emphasis*`, `**strong**` (or with `_`) at `start`: the closing run is the next one of the
 * same length that follows text (not a space), and `_` does not work inside words, so
 * snake_case_names stay as they are.
 */
function emphasisAt(text: string, start: number): { strong: boolean; inner: string; end: number } | null {
  const marker = text[start] as '*' | '_';
  const strong = text[start + 1] === marker;
  const length = strong ? 2 : 1;
  const open = start + length;
  if (text[open] === marker || isWhitespace(text[open])) return null;
  if (marker === '_' && isWordCharacter(text[start - 1])) return null;
  let search = open + 1;
  while (search < text.length) {
    const close = text.indexOf(marker, search);
    if (close < 0) return null;
    let run = 0;
    while (text[close + run] === marker) run += 1;
    // A run of three closes both: `**strong *and em***`, `*em **and strong***`.
    const closes =
      (run === length || run === 3) &&
      !isWhitespace(text[close - 1]) &&
      text[close - 1] !== '\\' &&
      !(marker === '_' && isWordCharacter(text[close + run]));
    if (closes) return { strong, inner: text.slice(open, close + run - length), end: close + run };
    search = close + run;
  }
  return null;
}
