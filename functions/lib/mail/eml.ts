import { randomBytes } from 'node:crypto';

/**
 * Just enough RFC 5322 / MIME to capture outgoing mail as .eml files locally (any mail client
 * opens them) and to read them back on the local mail page and in tests. Bodies are
 * quoted-printable, so a captured file stays readable in a text editor.
 */
export interface MailMessage {
  to: string;
  /** The sender, when not the mailer's own (MAIL_FROM): e.g. transfer mails' TRANSFER_MAIL_FROM. */
  from?: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). Names are letters and dashes only. */
  headers?: Readonly<Record<string, string>>;
}

export interface BuildEmlOptions {
  from: string;
  date?: Date;
  /** The domain part of the Message-ID. */
  messageIdDomain?: string;
}

const CRLF = '\r\n';
const MAX_QP_LINE = 76;

/** Header values must not carry line breaks (header injection) and must be ASCII or encoded. */
function headerValue(value: string): string {
  const singleLine = value.replace(/[\r\n]+/g, ' ');
  // RFC 2047 encoded-word for anything beyond printable ASCII.
  return /^[\x20-\x7e]*$/.test(singleLine) ? singleLine : `=?UTF-8?B?${Buffer.from(singleLine, 'utf8').toString('base64')}?=`;
}

/** RFC 5322 date-time, always in UTC: 'Tue, 05 May 2026 10:00:00 +0000'. */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

function encodeQpLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  const tokens: string[] = [];
  bytes.forEach((byte, index) => {
    const isLast = index === bytes.length - 1;
    const printable = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !isLast);
    tokens.push(printable ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`);
  });
  // Soft line breaks ('=' at the end) keep every encoded line within 76 characters.
  const lines: string[] = [];
  let current = '';
  for (const token of tokens) {
    if (current.length + token.length > MAX_QP_LINE - 1) {
      lines.push(`${current}=`);
      current = '';
    }
    current += token;
  }
  lines.push(current);
  return lines.join(CRLF);
}

export function encodeQuotedPrintable(text: string): string {
  return text.replace(/\r\n?/g, '\n').split('\n').map(encodeQpLine).join(CRLF);
}

export function decodeQuotedPrintable(encoded: string): string {
  const withoutSoftBreaks = encoded.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < withoutSoftBreaks.length; index += 1) {
    const char = withoutSoftBreaks[index] as string;
    const hex = withoutSoftBreaks.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeaderValue(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_, encoded: string) =>
    Buffer.from(encoded, 'base64').toString('utf8'),
  );
}

export function buildEml(message: MailMessage, options: BuildEmlOptions): string {
  const boundary = `=_toppubs_${randomBytes(12).toString('hex')}`;
  const messageId = `<${randomBytes(16).toString('hex')}@${options.messageIdDomain ?? 'toppubs.local'}>`;
  const part = (contentType: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${contentType}; charset=UTF-8`,
      'Content-Transfer-Encoding: quoted-printable',
      '',
      encodeQuotedPrintable(body),
    ].join(CRLF);
  return [
    `From: ${headerValue(options.from)}`,
    `To: ${headerValue(message.to)}`,
    `Subject: ${headerValue(message.subject)}`,
    `Date: ${rfc5322Date(options.date ?? new Date())}`,
    `Message-ID: ${messageId}`,
    ...Object.entries(message.headers ?? {}).map(([name, value]) => {
      if (!/^[A-Za-z][A-Za-z-]*$/.test(name)) throw new Error(`Refusing the mail header name '${name}'`);
      return `${name}: ${headerValue(value)}`;
    }),
    'MIME-Version: 1.0',
    // Folded (CRLF + space) to keep the line within 78 characters.
    `Content-Type: multipart/alternative;${CRLF} boundary="${boundary}"`,
    '',
    'This is a multi-part message in MIME format.',
    part('text/plain', message.text),
    part('text/html', message.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

export interface ParsedEml {
  headers: Record<string, string>;
  text: string | undefined;
  html: string | undefined;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const separator = raw.search(/\r?\n\r?\n/);
  const head = separator === -1 ? raw : raw.slice(0, separator);
  const body = separator === -1 ? '' : raw.slice(separator).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  // Folded headers continue on lines that start with white space.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeHeaderValue(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const name = (encoding ?? '').toLowerCase();
  if (name === 'quoted-printable') return decodeQuotedPrintable(body);
  if (name === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** Reads back what buildEml wrote (single part or multipart/alternative with text and html). */
export function parseEml(raw: string): ParsedEml {
  const { headers, body } = splitHead(raw);
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const result: ParsedEml = { headers, text: undefined, html: undefined };
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((section) => !section.startsWith('--'))
        .map((section) => splitHead(section.replace(/^\r?\n/, '')))
    : [{ headers, body }];
  for (const part of parts) {
    const type = (part.headers['content-type'] ?? 'text/plain').toLowerCase();
    const decoded = decodeBody(part.body.replace(/\r?\n$/, ''), part.headers['content-transfer-encoding']);
    if (type.startsWith('text/plain')) result.text ??= decoded.replace(/\r\n/g, '\n');
    else if (type.startsWith('text/html')) result.html ??= decoded.replace(/\r\n/g, '\n');
  }
  return result;
}
