import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './format';

describe('describeUserAgent', () => {
  it('names the browser and the device people know', () => {
    expect(
      describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'),
    ).toBe('Chrome on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe(
      'Firefox on Windows',
    );
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0',
      ),
    ).toBe('Edge on Windows');
  });

  it('says so when it cannot tell', () => {
    expect(describeUserAgent('')).toBe('Unknown browser');
    expect(describeUserAgent('curl/8.0.1')).toBe('Unknown browser');
  });
});
