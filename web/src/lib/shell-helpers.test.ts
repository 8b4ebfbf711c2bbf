import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { fetchCurrentUser, unseenNotificationCount } from './current-user';
import { filePathMessage, isFilePath } from './file-path';
import { menuNetworkProducts, NETWORK_PRODUCTS } from './network-products';
import { isReservedSegment, RESERVED_PATH_SEGMENTS } from './reserved-paths';

describe('isFilePath', () => {
  it.each(['/some/file.png', '/a.b/c.txt', '/robots.txt', '/topic/x/archive.tar.gz', '/IMAGE.JPEG'])(
    'treats %s as a file path',
    (path) => {
      expect(isFilePath(path)).toBe(true);
    },
  );

  it.each(['/', '/topics', '/topics/2', '/@jane.doe', '/a.b/c', '/growing/active', '/some/file.png/', '/v1.toolongext'])(
    'treats %s as a page',
    (path) => {
      expect(isFilePath(path)).toBe(false);
    },
  );

  it('words the refusal as the spec does', () => {
    expect(filePathMessage('/some/file.png')).toBe('File paths not supported: /some/file.png');
  });
});

describe('reserved path segments', () => {
  it('is the shared list: edit, draft, me, settings, stats', () => {
    expect(RESERVED_PATH_SEGMENTS).toEqual(['edit', 'draft', 'me', 'settings', 'stats']);
  });

  it.each(['edit', 'draft', 'me', 'settings', 'stats', 'Settings', '/me/'])('reserves %s', (segment) => {
    expect(isReservedSegment(segment)).toBe(true);
  });

  it.each(['jane', 'editor', 'm', '', 'stats2'])('does not reserve %s', (segment) => {
    expect(isReservedSegment(segment)).toBe(false);
  });
});

describe('network products', () => {
  it('skips browser extensions and keeps the order', () => {
    const titles = menuNetworkProducts({ signedIn: true }).map((product) => product.title);
    expect(titles).toEqual(['Rankings', 'Stories', 'Send files', 'Your transfers', 'Pro', 'Shops', 'Your orders']);
    expect(NETWORK_PRODUCTS.some((product) => product.isExtension)).toBe(true);
  });

  it("leaves a visitor's list without the pages of one's own things", () => {
    const titles = menuNetworkProducts({ signedIn: false }).map((product) => product.title);
    expect(titles).toEqual(['Rankings', 'Stories', 'Send files', 'Pro', 'Shops']);
  });

  it('points every listed product at a path on this host, none at another host', () => {
    for (const product of menuNetworkProducts({ signedIn: true })) expect(product.path).toMatch(/^\/(?!\/)/);
  });

  it('never points an icon at another host', () => {
    for (const product of NETWORK_PRODUCTS) expect(product.logoIconUrl).toMatch(/^(data:|\/)/);
  });
});

describe('fetchCurrentUser', () => {
  // Someone logged in on this browser: the login's hint cookie says the page may ask.
  beforeEach(() => {
    document.cookie = 'ssoh=1; Path=/';
  });
  afterEach(() => vi.unstubAllGlobals());

  function answer(status: number, body?: unknown) {
    const fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response(body === undefined ? null : JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  const jane = {
    userId: 'user-jane',
    username: 'jane',
    name: 'Jane Doe',
    isSuperUser: false,
    imageUrl: null,
    pennameAccountUrl: 'https://penname.example/a',
    numUnseenNotifications: 1,
    ssoAppNumUnseenNotifications: 2,
  };

  it("returns the user from the route table's current-user route", async () => {
    const fetchMock = answer(200, jane);
    await expect(fetchCurrentUser()).resolves.toEqual(jane);
    expect(fetchMock).toHaveBeenCalledWith(
      routes.getMe.path,
      expect.objectContaining({ method: routes.getMe.method, credentials: 'include' }),
    );
  });

  it('accepts a { currentUser } envelope', async () => {
    answer(200, { currentUser: jane });
    await expect(fetchCurrentUser()).resolves.toEqual(jane);
  });

  it.each([401, 403, 404])('treats %i as logged out', async (status) => {
    answer(status, { message: 'no session' });
    await expect(fetchCurrentUser()).resolves.toBeNull();
  });

  it('fails on a server error', async () => {
    answer(500, { message: 'boom' });
    await expect(fetchCurrentUser()).rejects.toThrow('boom');
  });

  it('adds both unseen counts', () => {
    expect(unseenNotificationCount(jane)).toBe(3);
    expect(unseenNotificationCount(null)).toBe(0);
  });
});
