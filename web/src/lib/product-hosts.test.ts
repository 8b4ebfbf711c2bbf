import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseProductHosts, productHosts, productHref } from './product-hosts';

describe('parseProductHosts', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads app=origin pairs, keeping only the origin', () => {
    // Act
    const hosts = parseProductHosts(' transfers=https://files.example.com/ignored/path , shops=http://localhost:4000 ');

    // Assess
    expect(hosts).toEqual({ transfers: 'https://files.example.com', shops: 'http://localhost:4000' });
  });

  it('is empty when unset or blank', () => {
    expect(parseProductHosts(undefined)).toEqual({});
    expect(parseProductHosts('  ')).toEqual({});
  });

  it('skips an unknown app or a host that is not an http(s) origin, and warns once', () => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const value = 'transfer=https://files.example.com,shops=javascript:alert(1),stories=nowhere,ranking=https://rank.example';

    // Act
    const first = parseProductHosts(value);
    const second = parseProductHosts(value);

    // Assess
    expect(first).toEqual({ ranking: 'https://rank.example' });
    expect(second).toEqual(first);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('"transfer=https://files.example.com"');
  });
});

describe('productHref', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is a route on this host by default', () => {
    expect(productHref('transfers', '/transfers', {})).toEqual({ kind: 'route', to: '/transfers' });
  });

  it("goes to the app's configured host", () => {
    // Act
    const href = productHref('transfers', '/transfers', { transfers: 'https://files.example.com' }, 'https://toppubs.example');

    // Assess
    expect(href).toEqual({ kind: 'url', href: 'https://files.example.com/transfers' });
  });

  it('stays a route when the configured host is this page', () => {
    expect(productHref('shops', '/merchant', { shops: 'https://toppubs.example' }, 'https://toppubs.example')).toEqual({
      kind: 'route',
      to: '/merchant',
    });
  });

  it('keeps an absolute URL as it is', () => {
    expect(productHref(undefined, 'https://store.example/x', {})).toEqual({ kind: 'url', href: 'https://store.example/x' });
  });

  it('reads VITE_PRODUCT_HOSTS from the build', () => {
    // Prepare
    vi.stubEnv('VITE_PRODUCT_HOSTS', 'stories=https://stories.example.com');

    // Assess
    expect(productHosts()).toEqual({ stories: 'https://stories.example.com' });
    expect(productHref('stories', '/stories')).toEqual({ kind: 'url', href: 'https://stories.example.com/stories' });
  });
});
