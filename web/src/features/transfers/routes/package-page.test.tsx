import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { PackageFile } from '../api/transfer-keys';
import { withVote } from '../api/use-vote-file';
import { id, makePackage, makePackageFile, makeTransfer } from '../test-utils/fixtures';
import { inviteTokenOf, PackagePage } from './package-page';

// The files of a worker share their modules (vitest.config.ts), and this file mocks
// ../lib/zip-download: the modules that import it may have been loaded for real by an earlier file, and
// would keep the mock for later ones. So this file imports fresh copies, and leaves none behind.
vi.hoisted(() => vi.resetModules());
afterAll(() => vi.resetModules());

const zip = vi.hoisted(() => ({ downloadAllAsZip: vi.fn() }));
vi.mock('../lib/zip-download', () => zip);
// jsdom cannot navigate: the download's address is what the page hands over.
const download = vi.hoisted(() => ({ openDownload: vi.fn() }));
vi.mock('../lib/open-download', () => download);

const T1 = id('t1');
const sent = makeTransfer(T1, {
  title: 'Holiday photos',
  message: 'The best of the trip.',
  status: 'sent',
  owner: { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null },
  expiresAt: '2026-03-08T10:00:00.000Z',
  fileCount: 2,
});
const ownGrant = { email: 'jane@example.com', expiresAt: '2026-03-31T10:00:00.000Z', accountCreated: false };
const beach = makePackageFile(id('beach'), { name: 'beach.png', type: 'image/png', size: 2_400_000, likes: 3, dislikes: 1 });
const notes = makePackageFile(id('notes'), {
  name: 'notes.txt',
  type: 'text/plain',
  size: 1_200,
  likes: 0,
  dislikes: 2,
  myVote: 'dislike',
});

function renderPackage(
  options: {
    path?: string;
    user?: typeof jane | null;
    view?: StubAnswer<typeof routes.getTransferPackage>;
    like?: StubAnswer<typeof routes.likeTransferFile>;
    accept?: StubAnswer<typeof routes.acceptTransferInvite>;
    /** A download limit the stubbed server keeps: each counted download (a file, the zip) takes one. */
    limit?: { limit: number; count: number; isOwner?: boolean };
  } = {},
) {
  const user = options.user === undefined ? jane : options.user;
  const file = (fileId: string) => [beach, notes].find((one) => one.id === fileId) ?? beach;
  const signedIn = user;
  const limit = options.limit;
  const spent = { status: 410, body: { message: 'This transfer has reached its download limit', code: 'DOWNLOAD_LIMIT_REACHED' } };
  /** Takes one download under the limit, as the server's claim does; undefined once it is spent. */
  const take = () => {
    if (!limit || limit.isOwner) return true;
    if (limit.count >= limit.limit) return false;
    limit.count += 1;
    return true;
  };
  const limitedView = () => ({
    body: makePackage({ ...sent, downloadLimit: limit?.limit ?? null, downloadCount: limit?.count ?? 0 }, [beach, notes], {
      isOwner: limit?.isOwner ?? false,
    }),
  });
  const api = stubRoutes(
    stubRoute(routes.getTransferPackage, options.view ?? (limit ? limitedView : { body: makePackage(sent, [beach, notes]) })),
    stubRoute(
      routes.likeTransferFile,
      options.like ??
        ((request) => ({
          body: { file: withVote(file(request.params.relationId ?? ''), request.params.status === 'on' ? 'like' : null) },
        })),
    ),
    stubRoute(routes.dislikeTransferFile, (request) => ({
      body: { file: withVote(file(request.params.recordId ?? ''), request.params.status === 'on' ? 'dislike' : null) },
    })),
    stubRoute(routes.downloadFile, (request) =>
      request.url.searchParams.get('disposition') === 'attachment' && !take()
        ? spent
        : {
            body: {
              url: `https://bucket.example.com/${request.params.id}`,
              name: 'x',
              size: 1,
              expiresAt: '2026-03-01T10:05:00.000Z',
            },
          },
    ),
    stubRoute(routes.downloadAllFiles, () =>
      take()
        ? {
            body: {
              name: 'Holiday photos.zip',
              files: [{ id: beach.id, name: 'beach.png', size: beach.size, url: 'https://bucket.example.com/beach' }],
              expiresAt: '2026-03-01T11:00:00.000Z',
            },
          }
        : spent,
    ),
    stubRoute(
      routes.acceptTransferInvite,
      options.accept ??
        // The grant is an HttpOnly cookie the page never sees; nobody is signed in by it.
        (() => ({ body: { ...makePackage(sent, [beach, notes]), grant: ownGrant } })),
    ),
    stubRoute(routes.getMe, () =>
      signedIn ? { body: signedIn } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } },
    ),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const rendered = renderShell({
    path: options.path ?? `/transfer/${T1}/package`,
    user,
    pages: [{ path: 'transfer/:id/package', Component: PackagePage }],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  zip.downloadAllAsZip.mockReset();
  download.openDownload.mockReset();
});

describe('PackagePage', () => {
  it('shows the sender, the title, the message, the expiry and each file with its counts', async () => {
    // Prepare
    const { page } = renderPackage();

    // Assess
    expect(await page.findByRole('heading', { name: 'Holiday photos', level: 1 })).toBeInTheDocument();
    expect(page.getByText(/sent you 2 files/)).toHaveTextContent(
      'Ana Lima sent you 2 files, 2.4 MB. Available until 8 March 2026',
    );
    expect(page.getByText('The best of the trip.')).toBeInTheDocument();
    const card = page.getByRole('article', { name: 'beach.png' });
    expect(card).toHaveTextContent('2.4 MB · image/png');
    expect(within(card).getByRole('button', { name: 'Like: 3 likes' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(card).getByRole('button', { name: 'Dislike: 1 dislike' })).toHaveAttribute('aria-pressed', 'false');
    expect(
      within(page.getByRole('article', { name: 'notes.txt' })).getByRole('button', { name: 'Dislike: 2 dislikes' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(page.getByRole('button', { name: 'Download all as .zip' })).toBeInTheDocument();
  });

  it("links the sender's name to their profile in the transfer app", async () => {
    // Prepare
    const { user, page, router } = renderPackage();
    const sender = await page.findByRole('link', { name: 'Ana Lima' });

    // Assess
    expect(sender).toHaveAttribute('href', '/transfers/people/u-ana');

    // Act
    await user.click(sender);

    // Assess
    await waitFor(() => expect(router.state.location.pathname).toBe('/transfers/people/u-ana'));
  });

  it('names no link when the reader sent the transfer', async () => {
    // Prepare
    const { page } = renderPackage({ view: { body: makePackage(sent, [beach, notes], { isOwner: true }) } });

    // Assess
    expect(await page.findByText(/You sent 2 files/)).toBeInTheDocument();
    expect(page.queryByRole('link', { name: 'Ana Lima' })).not.toBeInTheDocument();
  });

  it('previews an image with its inline link, and nothing else', async () => {
    // Prepare
    const { page, api } = renderPackage();

    // Assess
    expect(await page.findByRole('img', { name: 'Preview of beach.png' })).toHaveAttribute(
      'src',
      `https://bucket.example.com/${beach.id}`,
    );
    expect(
      api.calls(routes.downloadFile).map((request) => [request.params.id, request.url.searchParams.get('disposition')]),
    ).toEqual([[beach.id, 'inline']]);
  });

  it('likes a file at once and shows the pressed button with the new count', async () => {
    // Prepare
    const { user, page, api } = renderPackage();
    const card = await page.findByRole('article', { name: 'beach.png' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await within(card).findByRole('button', { name: 'Like: 4 likes' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.likeTransferFile)[0]?.params).toEqual({ id: T1, relationId: beach.id, status: 'on' });
  });

  it('puts the like back when the server refuses it, and says why', async () => {
    // Prepare
    let answer!: (reply: { status: number; body: { message: string; code: string } }) => void;
    const { user, page } = renderPackage({
      like: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    const card = await page.findByRole('article', { name: 'beach.png' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess: counted at once
    expect(await within(card).findByRole('button', { name: 'Like: 4 likes' })).toHaveAttribute('aria-pressed', 'true');

    // Act
    answer({ status: 410, body: { message: 'This transfer expired on 2026-03-08 and its files were deleted.', code: 'GONE' } });

    // Assess: put back
    expect(await within(card).findByRole('alert')).toHaveTextContent('This transfer expired on 2026-03-08');
    expect(within(card).getByRole('button', { name: 'Like: 3 likes' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('a like replaces the dislike the recipient had', async () => {
    // Prepare
    const { user, page } = renderPackage();
    const card = await page.findByRole('article', { name: 'notes.txt' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 0 likes' }));

    // Assess
    expect(await within(card).findByRole('button', { name: 'Like: 1 like' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(card).getByRole('button', { name: 'Dislike: 1 dislike' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('zips every file from the links the server gives, and says when the zip is saved', async () => {
    // Prepare
    zip.downloadAllAsZip.mockImplementation(
      async ({ onProgress }: { onProgress: (p: { bytes: number; totalBytes: number }) => void }) => {
        onProgress({ bytes: 1_200_000, totalBytes: 2_400_000 });
      },
    );
    const { user, page } = renderPackage();

    // Act
    await user.click(await page.findByRole('button', { name: 'Download all as .zip' }));

    // Assess
    expect(await page.findByText('The zip is saved in your downloads.')).toBeInTheDocument();
    expect(zip.downloadAllAsZip).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'Holiday photos.zip',
        files: [{ id: beach.id, name: 'beach.png', size: beach.size, url: 'https://bucket.example.com/beach' }],
      }),
    );
  });

  it('says why the zip could not be made', async () => {
    // Prepare
    zip.downloadAllAsZip.mockRejectedValue(new Error('beach.png could not be downloaded (403).'));
    const { user, page } = renderPackage();

    // Act
    await user.click(await page.findByRole('button', { name: 'Download all as .zip' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('beach.png could not be downloaded (403).');
    expect(page.getByRole('button', { name: 'Download all as .zip' })).toBeEnabled();
  });

  it('says when the transfer expired, with the date', async () => {
    // Prepare
    const gone = {
      message: 'This transfer expired on 2026-03-08 and its files were deleted.',
      code: 'GONE',
      expiredAt: '2026-03-08T10:00:00.000Z',
    };
    const { page } = renderPackage({ view: { status: 410, body: gone } });

    // Assess
    expect(await page.findByRole('heading', { name: 'This transfer has expired' })).toBeInTheDocument();
    expect(page.getByText('It expired on 8 March 2026 and its files were deleted.')).toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Download all as .zip' })).not.toBeInTheDocument();
  });

  it('says so when the transfer does not exist or was not sent to the reader', async () => {
    // Prepare
    const { page } = renderPackage({
      view: { status: 404, body: { message: 'There is no such transfer, or it was not sent to you.', code: 'NOT_FOUND' } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'This transfer does not exist or was not sent to you' })).toBeInTheDocument();
  });

  it('spends the emailed link: shows the package, signs no one in, says so and takes the token out of the address', async () => {
    // Prepare
    const { page, api, router } = renderPackage({ user: null, path: `/transfer/${T1}/package#invite=tok-123` });

    // Assess
    expect(await page.findByRole('heading', { name: 'Holiday photos', level: 1 })).toBeInTheDocument();
    expect(api.calls(routes.acceptTransferInvite)).toHaveLength(1);
    expect(api.calls(routes.acceptTransferInvite)[0]?.body).toEqual({ token: 'tok-123' });
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(router.state.location.pathname).toBe(`/transfer/${T1}/package`);
    expect(page.getByRole('status', { name: 'How you opened this transfer' })).toHaveTextContent(
      'You opened this transfer with the link sent to jane@example.com. The link opens this transfer only',
    );
    expect(page.getByText('Log in with jane@example.com to keep this transfer in your account.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Account menu for jane' })).not.toBeInTheDocument();
    expect(api.calls(routes.getTransferPackage)).toHaveLength(0);
  });

  it('tells a newcomer that an account was made for their address, that they are not logged in, and what logging in gives', async () => {
    // Prepare
    const { page } = renderPackage({
      user: null,
      path: `/transfer/${T1}/package#invite=tok-new`,
      accept: { body: { ...makePackage(sent, [beach, notes]), grant: { ...ownGrant, email: 'new@example.com', accountCreated: true } } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'Holiday photos', level: 1 })).toBeInTheDocument();
    const notice = page.getByRole('status', { name: 'How you opened this transfer' });
    expect(notice).toHaveTextContent('We made an account for new@example.com so your votes are kept. You are not logged in');
    expect(notice).toHaveTextContent(
      'Log in with new@example.com (we email you a link) to choose your username and name, keep this transfer among the ones you received',
    );
    expect(within(notice).getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
  });

  it('shows why an emailed link was refused, and the login button to a visitor', async () => {
    // Prepare
    const { page, api } = renderPackage({
      user: null,
      path: `/transfer/${T1}/package#invite=used-one`,
      accept: {
        status: 400,
        body: {
          message:
            'This link was already used. Sign in with the address it was sent to, and the files are in your received transfers.',
          code: 'BAD_REQUEST',
        },
      },
    });

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('This link was already used.');
    expect(page.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(api.calls(routes.acceptTransferInvite)).toHaveLength(1);
  });
});

describe('PackagePage under a download limit', () => {
  const REACHED = 'This transfer has reached its download limit: its files cannot be downloaded any more.';
  const downloadButtons = (page: ReturnType<typeof renderPackage>['page']) => [
    page.getByRole('button', { name: 'Download all as .zip' }),
    ...page.getAllByRole('button', { name: 'Download' }),
  ];

  it('moves "downloads left" as soon as a file or the zip is downloaded', async () => {
    // Prepare
    zip.downloadAllAsZip.mockResolvedValue(undefined);
    const { user, page } = renderPackage({ limit: { limit: 3, count: 0 } });
    expect(await page.findByText('3 of 3 downloads left.')).toBeInTheDocument();

    // Act
    await user.click(within(page.getByRole('article', { name: 'notes.txt' })).getByRole('button', { name: 'Download' }));

    // Assess
    expect(await page.findByText('2 of 3 downloads left.')).toBeInTheDocument();
    expect(download.openDownload).toHaveBeenCalledWith(`https://bucket.example.com/${notes.id}`);

    // Act
    await user.click(page.getByRole('button', { name: 'Download all as .zip' }));

    // Assess
    expect(await page.findByText('1 of 3 downloads left.')).toBeInTheDocument();
    for (const button of downloadButtons(page)) expect(button).toBeEnabled();
  });

  it('says so when the last download is taken, and turns the download buttons off with the reason', async () => {
    // Prepare
    const { user, page } = renderPackage({ limit: { limit: 2, count: 1 } });
    expect(await page.findByText('1 of 2 downloads left.')).toBeInTheDocument();

    // Act
    await user.click(within(page.getByRole('article', { name: 'beach.png' })).getByRole('button', { name: 'Download' }));

    // Assess
    expect(await page.findByText(REACHED)).toBeInTheDocument();
    for (const button of downloadButtons(page)) {
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(REACHED);
    }
  });

  it('catches up when someone else took the last download: says why this one was refused, and turns the buttons off', async () => {
    // Prepare
    const limit = { limit: 2, count: 1 };
    const { user, page } = renderPackage({ limit });
    expect(await page.findByText('1 of 2 downloads left.')).toBeInTheDocument();
    limit.count = 2;

    // Act
    await user.click(within(page.getByRole('article', { name: 'notes.txt' })).getByRole('button', { name: 'Download' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('This transfer has reached its download limit');
    expect(await page.findByText(REACHED)).toBeInTheDocument();
    expect(download.openDownload).not.toHaveBeenCalled();
    for (const button of downloadButtons(page)) expect(button).toBeDisabled();
  });

  it('leaves the sender their downloads once the limit is spent: theirs are never counted', async () => {
    // Prepare
    const { page } = renderPackage({ limit: { limit: 2, count: 2, isOwner: true } });

    // Assess
    expect(
      await page.findByText('This transfer has reached its download limit: nobody else can download its files any more.'),
    ).toBeInTheDocument();
    for (const button of downloadButtons(page)) expect(button).toBeEnabled();
  });
});

describe('inviteTokenOf', () => {
  it('reads the token from the fragment, and nothing else', () => {
    expect(inviteTokenOf('#invite=abc')).toBe('abc');
    expect(inviteTokenOf('#other=1')).toBeNull();
    expect(inviteTokenOf('')).toBeNull();
  });
});

describe('withVote', () => {
  const file: PackageFile = makePackageFile('f', { likes: 2, dislikes: 1, myVote: 'dislike' });

  it('moves the vote from one count to the other, and withdraws it', () => {
    expect(withVote(file, 'like')).toMatchObject({ likes: 3, dislikes: 0, myVote: 'like' });
    expect(withVote(file, null)).toMatchObject({ likes: 2, dislikes: 0, myVote: null });
  });
});
