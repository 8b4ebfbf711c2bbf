import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parseEml } from '../../functions/lib/mail/eml';

/**
 * The local-only page listing captured outgoing mail, so logins work with no mail server. It is mounted by
 * the local runtime and is not in the route table or in CDK, so it never exists in AWS.
 */
const PREFIX = '/__local/mail';
/** Only plain file names: no slashes, so nothing outside the outbox can be named. */
const MAIL_FILE = /^[\w.:-]+\.eml$/;
const SHOWN_HEADERS = ['date', 'from', 'to', 'subject', 'message-id'];

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Escapes the text, then turns http(s) URLs into links (the login link, above all). */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

function page(title: string, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem;border-radius:6px}</style></head>
<body>${content}</body></html>`;
}

/**
 * The outbox lists everyone's login links: no other page may frame it, and it runs no script and
 * loads nothing (its only style is inline).
 */
const OUTBOX_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function send(response: ServerResponse, status: number, html: string, method: string | undefined): void {
  response.writeHead(status, { ...OUTBOX_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(method === 'HEAD' ? undefined : html);
}

function mailFiles(outboxDir: string): string[] {
  if (!existsSync(outboxDir)) return [];
  // File names start with the ISO time they were written, so a reverse sort is newest first.
  return readdirSync(outboxDir)
    .filter((name) => MAIL_FILE.test(name))
    .sort()
    .reverse();
}

function listPage(outboxDir: string): string {
  const rows = mailFiles(outboxDir).map((name) => {
    const { headers } = parseEml(readFileSync(join(outboxDir, name), 'utf8'));
    const href = `${PREFIX}/${encodeURIComponent(name)}`;
    return `<tr><td>${escapeHtml(headers.date ?? '')}</td><td>${escapeHtml(headers.to ?? '')}</td><td><a href="${escapeHtml(href)}">${escapeHtml(headers.subject ?? '(no subject)')}</a></td></tr>`;
  });
  const body =
    rows.length === 0
      ? '<p>No email captured yet. Emails the app sends locally land here instead of going out.</p>'
      : `<table><thead><tr><th>Time</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return page(
    'Local mail outbox',
    `<h1>Local mail outbox</h1><p>Captured in <code>${escapeHtml(outboxDir)}</code>, newest first.</p>${body}`,
  );
}

function messagePage(outboxDir: string, name: string): string {
  const { headers, text, html } = parseEml(readFileSync(join(outboxDir, name), 'utf8'));
  const headerRows = SHOWN_HEADERS.filter((header) => headers[header] !== undefined)
    .map((header) => `<tr><th>${escapeHtml(header)}</th><td>${escapeHtml(headers[header] as string)}</td></tr>`)
    .join('');
  const bodyText = text ?? (html ? '(HTML only; open the .eml file in a mail client to see it)' : '(empty)');
  return page(
    headers.subject ?? name,
    `<p><a href="${PREFIX}">&larr; All captured mail</a></p><table>${headerRows}</table><pre>${linkify(bodyText)}</pre>`,
  );
}

export function createMailOutboxPage(outboxDir: string) {
  return function serveMailOutbox(request: IncomingMessage, response: ServerResponse, url: URL): boolean {
    // The raw request path, before URL normalisation folds '..' segments away: a request for
    // /__local/mail/../x is refused here instead of quietly becoming another page.
    const rawPath = (request.url ?? '/').split('?')[0] as string;
    const path = (rawPath.startsWith(`${PREFIX}/`) ? rawPath : url.pathname).replace(/\/+$/, '');
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...OUTBOX_HEADERS, allow: 'GET, HEAD' }).end();
      return true;
    }
    try {
      if (path === PREFIX) {
        send(response, 200, listPage(outboxDir), request.method);
        return true;
      }
      let name: string;
      try {
        name = decodeURIComponent(path.slice(PREFIX.length + 1));
      } catch {
        name = '';
      }
      if (!MAIL_FILE.test(name)) {
        send(response, 400, page('Not a mail file', '<p>That is not the name of a captured email.</p>'), request.method);
      } else if (!existsSync(join(outboxDir, name))) {
        send(
          response,
          404,
          page('Not found', `<p>No captured email named ${escapeHtml(name)}. <a href="${PREFIX}">All captured mail</a></p>`),
          request.method,
        );
      } else {
        send(response, 200, messagePage(outboxDir, name), request.method);
      }
    } catch (error) {
      send(
        response,
        500,
        page('Error', `<p>Could not read the outbox: ${escapeHtml((error as Error).message)}</p>`),
        request.method,
      );
    }
    return true;
  };
}
