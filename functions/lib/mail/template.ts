/**
 * Mail templates: a template is a typed function from its data to a subject, a plain-text body
 * and an HTML body. Values reach the HTML only through `html`, which escapes them, so a name
 * or an address with `<`, `&` or quotes in it shows as written and cannot add markup.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and the like). */
  headers?: Readonly<Record<string, string>>;
}

export type MailTemplate<Data> = (data: Data) => MailContent;

/** Markup that is safe as it is: built by `html`, never from a raw string. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML, safe in element content and in quoted attribute values. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

type HtmlValue = string | number | SafeHtml | readonly SafeHtml[];

/** A tagged template that escapes every interpolated value except SafeHtml (the output of another `html`). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    const piece =
      value instanceof SafeHtml
        ? value.markup
        : Array.isArray(value)
          ? value.map((part: SafeHtml) => part.markup).join('')
          : escapeHtml(String(value));
    markup += piece + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

/**
 * A link for a mail: absolute http(s) only. Anything else (a `javascript:` URL, a relative
 * path) is a bug upstream, refused here rather than mailed.
 */
export function mailLink(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`Refusing to mail a ${parsed.protocol} link`);
  return parsed.href;
}

/**
 * The shape of the product's action mails: one line saying what the link does, the link (as a
 * button in HTML, on a line of its own in text), and a note on how long it works.
 */
export function actionLinkMail(options: {
  subject: string;
  intro: string;
  linkLabel: string;
  url: string;
  note: string;
}): MailContent {
  const url = mailLink(options.url);
  const text = [options.intro, '', url, '', options.note, ''].join('\n');
  const body = html`<!doctype html>
    <html>
      <body style="font-family:system-ui,sans-serif;line-height:1.5">
        <p>${options.intro}</p>
        <p><a href="${url}">${options.linkLabel}</a></p>
        <p style="color:#555">${options.note}</p>
      </body>
    </html>`;
  return { subject: options.subject, text, html: body.markup };
}
