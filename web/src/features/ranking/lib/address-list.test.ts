import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_ADDRESSES, parseAddressList, reportCsv } from './address-list';

describe('parseAddressList', () => {
  it('takes one address a line, or the first of a CSV row, each once, skipping comments and blank lines', () => {
    // Act
    const list = parseAddressList(
      [
        '# publications to add',
        'https://medium.com/ux-collective',
        '',
        '"https://fieldnotesontea.wordpress.com/",Tea,18342',
        'https://medium.com/ux-collective',
        'not an address',
        '  http://pulse-kitchen.example/feed.xml  ',
      ].join('\r\n'),
    );

    // Assess
    expect(list).toEqual({
      urls: ['https://medium.com/ux-collective', 'https://fieldnotesontea.wordpress.com/', 'http://pulse-kitchen.example/feed.xml'],
      skippedLines: 1,
      leftOut: 0,
    });
  });

  it(`keeps the first ${MAX_IMPORT_ADDRESSES} addresses of a longer list and counts the rest`, () => {
    // Act
    const list = parseAddressList(Array.from({ length: MAX_IMPORT_ADDRESSES + 3 }, (_, index) => `https://a.example/${index}`).join('\n'));

    // Assess
    expect(list.urls).toHaveLength(MAX_IMPORT_ADDRESSES);
    expect(list.leftOut).toBe(3);
  });
});

describe('reportCsv', () => {
  it('writes a row per address, quoting cells with commas or quotes', () => {
    // Act
    const csv = reportCsv(
      [
        { url: 'https://medium.com/ux-collective', outcome: 'added', slug: 'ux-collective', reason: null },
        { url: 'https://quiet.example/feed.xml', outcome: 'failed', slug: null, reason: 'Robots say "no", sorry' },
      ],
      'https://toppubs.example',
    );

    // Assess
    expect(csv).toBe(
      'address,outcome,page,reason\n' +
        'https://medium.com/ux-collective,added,https://toppubs.example/pub/ux-collective,\n' +
        'https://quiet.example/feed.xml,failed,,"Robots say ""no"", sorry"\n',
    );
  });
});
