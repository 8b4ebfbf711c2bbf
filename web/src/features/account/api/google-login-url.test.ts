import { describe, expect, it } from 'vitest';
import { currentReturnTo } from './google-login-url';

describe('currentReturnTo', () => {
  it('comes back to the page and its query', () => {
    expect(currentReturnTo({ pathname: '/topic/ux', search: '?active=true' })).toBe('/topic/ux?active=true');
  });

  it('comes back to the home page from /logout, not to a second logout', () => {
    expect(currentReturnTo({ pathname: '/logout', search: '' })).toBe('/');
  });

  it('keeps just the path when the query makes it too long for the server', () => {
    expect(currentReturnTo({ pathname: '/search', search: `?q=${'x'.repeat(600)}` })).toBe('/search');
  });
});
