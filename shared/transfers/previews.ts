import { IMAGE_TYPES, normaliseContentType } from './file-rules';

/**
 * How a package file is previewed, decided from its declared type and its name, the same way by
 * the server (which signs the preview link) and the page (which picks the viewer).
 *
 * - image: shown large in the lightbox, from an inline link.
 * - pdf: opened in the browser's own viewer, from an inline link.
 * - audio, video: played in <audio>/<video>, from an inline link (seeking uses Range).
 * - text: the first bytes fetched with a Range GET and shown as text. The link says text/plain
 *   and attachment whatever the file is, so opened by itself it is never rendered.
 * - none: download only.
 *
 * A preview link is served from the file bucket's origin: anything a browser would run there
 * (HTML, SVG, XML with its stylesheets and namespaces) is never inline, only text.
 */
export const PREVIEW_KINDS = ['image', 'pdf', 'audio', 'video', 'text', 'none'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** What a text preview shows: the first 64 KB. */
export const TEXT_PREVIEW_BYTES = 65_536;
/** The content type every text preview link is signed with: never rendered as a page. */
export const TEXT_PREVIEW_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Types whose bytes a browser would run or render as a document of the bucket's origin. */
const SCRIPTABLE_TYPES =
  /(^text\/html$)|(^application\/xhtml\+xml$)|(^image\/svg\+xml$)|xml$|(^text\/xsl$)|(^application\/xslt\+xml$)|(^multipart\/)|(^message\/rfc822$)/;
const SCRIPTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'mht',
  'mhtml',
]);

const TEXT_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/x-ndjson',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-typescript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-sql',
  'application/x-python',
  'application/x-python-code',
]);

const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  ...['txt', 'text', 'md', 'markdown', 'rst', 'csv', 'tsv', 'log', 'json', 'jsonl', 'ndjson'],
  ...['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'py', 'rb', 'go', 'rs', 'java', 'kt', 'swift'],
  ...['c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'php', 'pl', 'lua', 'r', 'scala', 'sh', 'bash', 'zsh'],
  ...['css', 'scss', 'less', 'sql', 'yml', 'yaml', 'toml', 'ini', 'cfg', 'conf', 'env', 'properties', 'tex', 'diff', 'patch'],
]);

const PLAYABLE_AUDIO = new Set([
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/webm',
  'audio/aac',
  'audio/mp4',
  'audio/x-m4a',
  'audio/flac',
  'audio/x-flac',
]);
const PLAYABLE_VIDEO = new Set(['video/mp4', 'video/webm', 'video/ogg', 'video/quicktime']);

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** Whether a browser could run this file's content if it were served inline. */
export function isScriptable(file: { name: string; type: string }): boolean {
  return SCRIPTABLE_TYPES.test(normaliseContentType(file.type)) || SCRIPTABLE_EXTENSIONS.has(extensionOf(file.name));
}

export function previewKindOf(file: { name: string; type: string }): PreviewKind {
  const type = normaliseContentType(file.type);
  const extension = extensionOf(file.name);
  // Scriptable files are read as text, never rendered: checked before any other kind, so an
  // "image.svg" or a page declared as an image is not shown inline.
  if (isScriptable(file)) return 'text';
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (PLAYABLE_AUDIO.has(type)) return 'audio';
  if (PLAYABLE_VIDEO.has(type)) return 'video';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || TEXT_EXTENSIONS.has(extension)) return 'text';
  return 'none';
}

/** The inline kinds: the link renders in the page or the browser's viewer. */
export const isInlineKind = (kind: PreviewKind) => kind === 'image' || kind === 'pdf' || kind === 'audio' || kind === 'video';
