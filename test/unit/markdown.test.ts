import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_TAGS, renderMarkdown, safeLinkHref } from '../../shared/markdown';

const REL = 'rel="nofollow ugc noopener"';

describe('renderMarkdown', () => {
  it('makes paragraphs of blank-line separated text, keeping line breaks inside one', () => {
    // Act
    const html = renderMarkdown('First line\nsame paragraph\n\n\nSecond');

    // Assess
    expect(html).toBe('<p>First line\nsame paragraph</p>\n<p>Second</p>');
  });

  it('renders emphasis, strong, inline code and nesting of them', () => {
    // Act
    const html = renderMarkdown('*soft* **loud** _also_ __too__ `a < b` **bold *and soft***');

    // Assess
    expect(html).toBe(
      '<p><em>soft</em> <strong>loud</strong> <em>also</em> <strong>too</strong> <code>a &lt; b</code> <strong>bold <em>and soft</em></strong></p>',
    );
  });

  it('leaves markers that open nothing as text: a lone star, snake_case names, a star before a space', () => {
    // Act
    const html = renderMarkdown('2 * 3 = 6, my_var_name, * not a list, \\*escaped\\*');

    // Assess
    expect(html).toBe('<p>2 * 3 = 6, my_var_name, * not a list, *escaped*</p>');
  });

  it('links http, https and mailto addresses with the user-content rel, and bare addresses without their punctuation', () => {
    // Act
    const html = renderMarkdown('[the *post*](https://example.com/a?b=1&c=2), mail [me](mailto:ana@example.com) or see https://example.org/x.');

    // Assess
    expect(html).toBe(
      `<p><a href="https://example.com/a?b=1&amp;c=2" ${REL}>the <em>post</em></a>, mail <a href="mailto:ana@example.com" ${REL}>me</a> or see <a href="https://example.org/x" ${REL}>https://example.org/x</a>.</p>`,
    );
  });

  it('keeps links with other schemes, relative addresses and spaces as text', () => {
    // Act
    const html = renderMarkdown('[a](javascript:alert(1)) [b](java\tscript:x) [c](data:text/html,hi) [d](/relative) [e](//x.org/a)');

    // Assess
    expect(html).not.toContain('<a');
    expect(html).toContain('[a](javascript:alert(1))');
  });

  it('writes raw HTML as text', () => {
    // Act
    const html = renderMarkdown('<script>alert("x")</script> <img src=x onerror=alert(1)>');

    // Assess
    expect(html).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it('renders fenced code blocks verbatim and escaped, and block quotes with their own paragraphs', () => {
    // Act
    const html = renderMarkdown('```ts\nconst a = "<b>*no*</b>";\n\nreturn a;\n```\n> quoted **here**\n>\n> > nested');

    // Assess
    expect(html).toBe(
      '<pre><code>const a = &quot;&lt;b&gt;*no*&lt;/b&gt;&quot;;\n\nreturn a;</code></pre>\n' +
        '<blockquote><p>quoted <strong>here</strong></p>\n<blockquote><p>nested</p></blockquote></blockquote>',
    );
  });

  it('answers an empty string for blank input', () => {
    // Act and assess
    expect(renderMarkdown(' \n\n\t')).toBe('');
  });

  it('renders a long hostile body within a few hundred milliseconds', () => {
    // Prepare: openers that never close, the slow case of delimiter matching
    const body = '*a _b [c `d '.repeat(800);
    const started = performance.now();

    // Act
    renderMarkdown(body);

    // Assess
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('safeLinkHref', () => {
  it('answers the normalised address of http, https and mailto URLs, and null for anything else', () => {
    // Act and assess
    expect(safeLinkHref(' HTTPS://Example.com/a"b ')).toBe('https://example.com/a%22b');
    expect(safeLinkHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeLinkHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeLinkHref('vbscript:msgbox')).toBeNull();
    expect(safeLinkHref('data:text/html;base64,PHNjcmlwdD4=')).toBeNull();
    expect(safeLinkHref('//evil.example/x')).toBeNull();
  });
});

/** Pieces that attackers and unlucky writers combine: markup, event handlers, schemes, Markdown markers. */
const HOSTILE_PIECES = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//x.js>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<svg/onload=alert(1)>',
  '<iframe src="data:text/html,x">',
  '" onmouseover="alert(1)',
  "' onfocus='x",
  'javascript:alert(1)',
  'JAVASCRIPT:',
  'java\nscript:',
  'vbscript:x',
  'data:text/html,<b>',
  '](',
  '[x](',
  ')',
  '[',
  ']',
  'https://example.com/?q="<x>',
  'http://a.b',
  'mailto:a@b',
  '*',
  '**',
  '_',
  '__',
  '`',
  '```',
  '~~~',
  '> ',
  '\\',
  '&lt;script&gt;',
  '&#106;avascript:',
  '\n',
  '\n\n',
  ' ',
  'word',
];

const hostileMarkdown = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), {
    maxLength: 40,
  })
  .map((pieces) => pieces.join(''));

/** Every tag in the output, with its name and attribute text. */
const tagsOf = (html: string) =>
  [...html.matchAll(/<(\/?)([^\s/>]*)([^>]*)>/g)].map(([, closing, name, attributes]) => ({
    closing: closing === '/',
    name: name as string,
    attributes: (attributes as string).trim(),
  }));

describe('renderMarkdown on generated input (property)', () => {
  it('writes only its own tags, attributes and safe addresses, whatever the input', () => {
    fc.assert(
      fc.property(hostileMarkdown, (source) => {
        // Act
        const html = renderMarkdown(source);

        // Assess: any "<" in the output opens a tag of the subset; links carry only a safe href and the rel
        expect(html.toLowerCase()).not.toContain('<script');
        for (const tag of tagsOf(html)) {
          expect(MARKDOWN_TAGS as readonly string[]).toContain(tag.name);
          if (tag.closing || tag.name !== 'a') {
            expect(tag.attributes).toBe('');
            continue;
          }
          const attributes = /^href="([^"]*)" rel="nofollow ugc noopener"$/.exec(tag.attributes);
          expect(attributes, tag.attributes).not.toBeNull();
          expect(attributes?.[1]).toMatch(/^(https?:\/\/|mailto:)/);
        }
        // No "<" but the ones that open the tags above (so no raw markup), and no handler attribute anywhere in a tag.
        expect(html.split('<').length - 1).toBe(tagsOf(html).length);
        expect(tagsOf(html).some((tag) => /\son\w+\s*=/i.test(` ${tag.attributes}`))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('opens and closes its tags in order (no markup left open for later text to continue)', () => {
    fc.assert(
      fc.property(hostileMarkdown, (source) => {
        // Act
        const html = renderMarkdown(source);

        // Assess
        const open: string[] = [];
        for (const tag of tagsOf(html)) {
          if (tag.closing) expect(open.pop()).toBe(tag.name);
          else open.push(tag.name);
        }
        expect(open).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
