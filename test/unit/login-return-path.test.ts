import { describe, expect, it } from 'vitest';
import { loginReturnPath } from '../../shared/return-path';

describe('where a login lands', () => {
  it('is the page it started from, with its query', () => {
    expect(loginReturnPath('/topic/data-science?active=true')).toBe('/topic/data-science?active=true');
    expect(loginReturnPath('/@ana')).toBe('/@ana');
    expect(loginReturnPath('/')).toBe('/');
  });

  it('is the home page from a page that logs out or in: never a second logout', () => {
    expect(loginReturnPath('/logout')).toBe('/');
    expect(loginReturnPath('/LOGOUT?x=1')).toBe('/');
    expect(loginReturnPath('/login/confirm#token=abc')).toBe('/');
    expect(loginReturnPath('/authed/token/action/verify-email')).toBe('/');
    // A near miss is a real page.
    expect(loginReturnPath('/logouts-explained')).toBe('/logouts-explained');
  });

  it('is the home page for anything that is not a path on this site', () => {
    for (const unsafe of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'topics',
      '',
      42,
      undefined,
      `/${'a'.repeat(600)}`,
    ]) {
      expect(loginReturnPath(unsafe)).toBe('/');
    }
  });
});
