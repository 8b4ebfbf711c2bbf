import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { ana, makeStory } from '../test-utils/fixtures';
import { StoriesPage } from './stories-page';

const story = makeStory;

function renderStories(options: {
  path?: string;
  user?: typeof jane | null;
  hot?: StubAnswer<typeof routes.readHotFeed>;
  like?: StubAnswer<typeof routes.likeStory>;
  share?: StubAnswer<typeof routes.shareStoryByUrl>;
  claim?: StubAnswer<typeof routes.claimStoryAuthor>;
  review?: StubAnswer<typeof routes.submitStoryForReview>;
}) {
  const user = options.user === undefined ? jane : options.user;
  const api = stubRoutes(
    stubRoute(routes.readHotFeed, options.hot ?? { body: { items: [story('s1')], nextCursor: null } }),
    stubRoute(routes.readFollowingFeed, { body: { items: [], nextCursor: null } }),
    stubRoute(
      routes.likeStory,
      options.like ??
        ((request) => ({
          body: {
            story: story(request.params.id ?? '', {
              likeCount: 4,
              commentCount: 0,
              currentUserRelation: { didRedirect: true, isSharer: false, didUpvote: true },
            }),
          },
        })),
    ),
    stubRoute(routes.readNewFeed, { body: { items: [], nextCursor: null } }),
    stubRoute(
      routes.shareStoryByUrl,
      options.share ??
        ((request) => ({
          status: 201,
          body: {
            story: story('fresh', { url: String((request.body as { url: string }).url), title: 'Fresh story' }),
            duplicate: false,
          },
        })),
    ),
    stubRoute(
      routes.claimStoryAuthor,
      options.claim ??
        ((request) => ({
          body: {
            story: story(request.params.id ?? '', {
              claimedAuthor:
                request.params.status === 'on'
                  ? { userId: jane.userId, username: 'jane', name: 'Jane Doe', imageUrl: null }
                  : null,
            }),
          },
        })),
    ),
    stubRoute(
      routes.submitStoryForReview,
      options.review ??
        ((request) => ({
          body: {
            story: story(request.params.id ?? '', {
              currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false },
              review: { state: request.params.status === 'on' ? 'submitted' : 'none', submittedAt: null, decidedAt: null },
            }),
          },
        })),
    ),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    // The login modal asks for a bot check whenever it opens.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({ path: options.path ?? '/stories', user, pages: [{ path: 'stories/:feed?', Component: StoriesPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('StoriesPage', () => {
  it('shows each story with its site, sharer and a link out through the redirect route', async () => {
    // Prepare
    const { page } = renderStories({});

    // Assess
    const card = await page.findByRole('article', { name: 'Story s1' });
    expect(within(card).getByRole('link', { name: 'Story s1' })).toHaveAttribute('href', '/api/i/stories/story/s1/go');
    expect(within(card).getByRole('link', { name: 'Ana Lima' })).toHaveAttribute('href', '/@ana');
    expect(card).toHaveTextContent('Ship Notes');
  });

  it("links each story's comment count to the story's page", async () => {
    // Prepare
    const { page } = renderStories({
      hot: { body: { items: [story('s1', { commentCount: 1 }), story('s2', { commentCount: 12 })], nextCursor: null } },
    });

    // Assess
    const first = await page.findByRole('article', { name: 'Story s1' });
    expect(within(first).getByRole('link', { name: '1 comment' })).toHaveAttribute('href', '/stories/s1');
    expect(within(page.getByRole('article', { name: 'Story s2' })).getByRole('link', { name: '12 comments' })).toHaveAttribute(
      'href',
      '/stories/s2',
    );
  });

  it("links the feed's RSS and Atom feeds on the page and in its head", async () => {
    // Prepare
    const { page } = renderStories({ path: '/stories/new' });

    // Assess
    expect(await page.findByRole('link', { name: 'RSS feed of New stories · TopPubs' })).toHaveAttribute(
      'href',
      '/feeds/stories/new.rss',
    );
    expect(page.getByRole('link', { name: 'Atom feed of New stories · TopPubs' })).toHaveAttribute(
      'href',
      '/feeds/stories/new.atom',
    );
    await waitFor(() =>
      expect(document.head.querySelector('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
        'href',
        `${window.location.origin}/feeds/stories/new.rss`,
      ),
    );
  });

  it("shows a story's https image beside it, and never an http one", async () => {
    // Prepare
    const { page } = renderStories({
      hot: {
        body: {
          items: [
            story('pic', { imageUrl: 'https://cdn.example.com/pic.png' }),
            story('plain', { imageUrl: 'http://cdn.example.com/x.png' }),
          ],
          nextCursor: null,
        },
      },
    });

    // Assess
    const pic = await page.findByRole('article', { name: 'Story pic' });
    expect(within(pic).getByRole('presentation')).toHaveAttribute('src', 'https://cdn.example.com/pic.png');
    expect(within(page.getByRole('article', { name: 'Story plain' })).queryByRole('presentation')).not.toBeInTheDocument();
  });

  it('likes at once, then shows what the server answered', async () => {
    // Prepare
    const { api, user, page } = renderStories({});
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await within(card).findByRole('button', { name: 'Unlike: 4 likes' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.likeStory)[0]?.params).toEqual({ id: 's1', status: 'on' });
  });

  it('puts the like back when the server refuses it, and says why', async () => {
    // Prepare
    const { user, page } = renderStories({
      like: { status: 503, body: { message: 'So many people are liking this story right now.', code: 'SERVICE_UNAVAILABLE' } },
    });
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await within(card).findByRole('alert')).toHaveTextContent('So many people are liking this story right now.');
    expect(within(card).getByRole('button', { name: 'Like: 3 likes' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('asks to read a story before liking it, and never lets the sharer like their own', async () => {
    // Prepare
    const { page } = renderStories({
      hot: {
        body: {
          items: [
            story('unread', { currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false } }),
            story('mine', { currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false } }),
          ],
          nextCursor: null,
        },
      },
    });

    // Assess
    const unread = await page.findByRole('article', { name: 'Story unread' });
    expect(within(unread).getByRole('button', { name: /^Like/ })).toBeDisabled();
    expect(unread).toHaveTextContent('Read the story to like it.');
    const mine = page.getByRole('article', { name: 'Story mine' });
    expect(within(mine).getByRole('button', { name: /^Like/ })).toBeDisabled();
  });

  it("opens the login modal for a visitor's like", async () => {
    // Prepare
    const { user, page } = renderStories({ user: null });
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Like: 3 likes' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('asks a visitor to log in for the following feed', async () => {
    // Prepare
    const { page } = renderStories({ user: null, path: '/stories/following' });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to see stories from people you follow' })).toBeInTheDocument();
  });

  it('says who wrote a story once a reader claims it, and takes the claim back', async () => {
    // Prepare
    const { api, user, page } = renderStories({});
    const card = await page.findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'I wrote this' }));

    // Assess
    expect(await within(card).findByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/@jane');
    expect(within(card).getByRole('button', { name: 'I wrote this' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.claimStoryAuthor)[0]?.params).toEqual({ id: 's1', status: 'on' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'I wrote this' }));

    // Assess
    await waitFor(() => expect(within(card).queryByRole('link', { name: 'Jane Doe' })).not.toBeInTheDocument());
    expect(api.calls(routes.claimStoryAuthor)[1]?.params).toEqual({ id: 's1', status: 'off' });
  });

  it("offers no claim on a story someone else claimed, and shows the server's refusal of a claim", async () => {
    // Prepare
    const { user, page } = renderStories({
      hot: {
        body: {
          items: [story('theirs', { claimedAuthor: ana }), story('mine')],
          nextCursor: null,
        },
      },
      claim: { status: 409, body: { message: 'Someone else already says they wrote this story.', code: 'CONFLICT' } },
    });
    const theirs = await page.findByRole('article', { name: 'Story theirs' });
    const mine = page.getByRole('article', { name: 'Story mine' });

    // Act
    await user.click(within(mine).getByRole('button', { name: 'I wrote this' }));

    // Assess
    expect(within(theirs).queryByRole('button', { name: 'I wrote this' })).not.toBeInTheDocument();
    expect(await within(mine).findByRole('alert')).toHaveTextContent('Someone else already says they wrote this story.');
  });

  it('lets the sharer submit their story for the editorial review, and says what became of it', async () => {
    // Prepare
    const { api, user, page } = renderStories({
      hot: {
        body: {
          items: [
            story('mine', { currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false } }),
            story('passed', {
              currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false },
              review: { state: 'rejected', submittedAt: null, decidedAt: null },
            }),
            story('other'),
          ],
          nextCursor: null,
        },
      },
    });
    const mine = await page.findByRole('article', { name: 'Story mine' });

    // Act
    await user.click(within(mine).getByRole('button', { name: 'Submit for review' }));

    // Assess
    expect(await within(mine).findByText('Waiting for the editors.')).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Submit for review' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.submitStoryForReview)[0]?.params).toEqual({ id: 'mine', status: 'on' });
    const passed = page.getByRole('article', { name: 'Story passed' });
    expect(passed).toHaveTextContent('The editors passed on this one.');
    expect(within(passed).queryByRole('button', { name: 'Submit for review' })).not.toBeInTheDocument();
    expect(
      within(page.getByRole('article', { name: 'Story other' })).queryByRole('button', { name: 'Submit for review' }),
    ).not.toBeInTheDocument();
  });

  it('lets the sharer withdraw a story that waits for review', async () => {
    // Prepare
    const { api, user, page } = renderStories({
      hot: {
        body: {
          items: [
            story('waiting', {
              currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false },
              review: { state: 'submitted', submittedAt: '2026-11-24T11:00:00.000Z', decidedAt: null },
            }),
          ],
          nextCursor: null,
        },
      },
    });
    const card = await page.findByRole('article', { name: 'Story waiting' });
    expect(within(card).getByText('Waiting for the editors.')).toBeInTheDocument();

    // Act
    await user.click(within(card).getByRole('button', { name: 'Submit for review' }));

    // Assess
    await waitFor(() => expect(within(card).queryByText('Waiting for the editors.')).not.toBeInTheDocument());
    expect(within(card).getByRole('button', { name: 'Submit for review' })).toHaveAttribute('aria-pressed', 'false');
    expect(api.calls(routes.submitStoryForReview)[0]?.params).toEqual({ id: 'waiting', status: 'off' });
  });

  it("shows the server's refusal of a review submission in the card", async () => {
    // Prepare
    const { user, page } = renderStories({
      hot: {
        body: {
          items: [story('mine', { currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false } })],
          nextCursor: null,
        },
      },
      review: { status: 409, body: { message: 'The editors already decided on this story.', code: 'CONFLICT' } },
    });
    const card = await page.findByRole('article', { name: 'Story mine' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Submit for review' }));

    // Assess
    expect(await within(card).findByRole('alert')).toHaveTextContent('The editors already decided on this story.');
    expect(within(card).getByRole('button', { name: 'Submit for review' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('links a superuser to the review queue', async () => {
    // Prepare
    const { page } = renderStories({ user: { ...jane, isSuperUser: true } });

    // Assess
    expect(await page.findByRole('link', { name: 'Review queue' })).toHaveAttribute('href', '/stories/review');
  });

  it('shows no review queue link to other readers', async () => {
    // Prepare
    const { page } = renderStories({});

    // Assess
    await page.findByRole('article', { name: 'Story s1' });
    expect(page.queryByRole('link', { name: 'Review queue' })).not.toBeInTheDocument();
  });
});

describe('sharing a story', () => {
  const openShareForm = async (options: Parameters<typeof renderStories>[0] = {}) => {
    const rendered = renderStories(options);
    await rendered.user.click(await rendered.page.findByRole('button', { name: 'Share a story' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share a story' });
    return { ...rendered, dialog, field: within(dialog).getByRole('textbox', { name: 'Story URL' }) };
  };

  it("shows the sharing rule's alert as you type, and sends nothing the rules refuse", async () => {
    // Prepare
    const { api, user, dialog, field } = await openShareForm();

    // Act
    await user.type(field, 'https://twitter.com/someone/status/1');

    // Assess
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Stories only');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Stories only'));

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(api.calls(routes.shareStoryByUrl)).toHaveLength(0);
  });

  it('shares a story the rules accept and shows it as shared', async () => {
    // Prepare
    const { api, user, dialog, field } = await openShareForm();

    // Act: a near miss of the LinkedIn rule: a /pulse/ article is a story
    await user.type(field, 'https://www.linkedin.com/pulse/how-we-ship?utm_source=x');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Shared with your followers.');
    expect(within(dialog).getByRole('article', { name: 'Preview: Fresh story' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls(routes.shareStoryByUrl)[0]?.body).toEqual({ url: 'https://www.linkedin.com/pulse/how-we-ship' });
  });

  it("shows the server's alert, and says when the story was shared already", async () => {
    // Prepare
    let calls = 0;
    const rendered = renderStories({
      share: () => {
        calls += 1;
        return calls === 1
          ? {
              status: 400,
              body: {
                message: 'Invalid url',
                code: 'INVALID_URL',
                alert: { title: 'No spamming', text: 'Links to known spam sites cannot be shared.' },
              },
            }
          : { body: { story: story('older', { title: 'Older story' }), duplicate: true } };
      },
    });
    await rendered.user.click(await rendered.page.findByRole('button', { name: 'Share a story' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share a story' });
    const field = within(dialog).getByRole('textbox', { name: 'Story URL' });

    // Act
    await rendered.user.type(field, 'https://blog.example.com/post');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No spamming');

    // Act
    await rendered.user.type(field, '-2');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Already shared by Ana Lima: here it is.');
  });

  it('shows the new story in the feed once it is shared, with its https image in the preview', async () => {
    // Prepare
    let shared = false;
    const { user, page, dialog, field } = await openShareForm({
      hot: () => ({
        body: { items: shared ? [story('fresh', { title: 'Fresh story' }), story('s1')] : [story('s1')], nextCursor: null },
      }),
      share: () => {
        shared = true;
        return {
          status: 201,
          body: {
            story: story('fresh', { title: 'Fresh story', imageUrl: 'https://cdn.example.com/fresh.png' }),
            duplicate: false,
          },
        };
      },
    });

    // Act
    await user.type(field, 'https://blog.example.com/fresh');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    const preview = await within(dialog).findByRole('article', { name: 'Preview: Fresh story' });
    expect(within(preview).getByRole('presentation')).toHaveAttribute('src', 'https://cdn.example.com/fresh.png');
    expect(within(preview).getByRole('link', { name: 'Fresh story' })).toHaveAttribute('href', '/api/i/stories/story/fresh/go');
    expect(within(dialog).getByRole('link', { name: 'See it in New' })).toHaveAttribute('href', '/stories/new');

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    // Assess
    expect(await page.findByRole('article', { name: 'Fresh story' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Share a story' })).not.toBeInTheDocument();
  });

  it.each([
    [
      'The page could not be reached',
      "Shared. We couldn't reach medium.com to read the story's title. It was shared with its address as the title.",
    ],
    [
      'The page did not answer in time',
      "Shared. medium.com took too long to answer, so we couldn't read the story's title. It was shared with its address as the title.",
    ],
  ])('says in plain words why the page could not be read (%s), and titles the story by host and path', async (problem, note) => {
    // Prepare
    const { user, dialog, field } = await openShareForm({
      share: {
        status: 201,
        body: {
          story: story('bare', {
            url: 'https://www.medium.com/@ana/how-we-ship-1a2b3c/?source=rss#top',
            title: null,
            siteName: null,
            imageUrl: 'http://medium.com/cover.png',
            source: 'url-only',
            fetchProblem: problem,
          }),
          duplicate: false,
        },
      },
    });

    // Act
    await user.type(field, 'https://www.medium.com/@ana/how-we-ship-1a2b3c/?source=rss#top');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(await within(dialog).findByRole('status')).toHaveTextContent(note);
    const preview = within(dialog).getByRole('article', { name: 'Preview: medium.com/@ana/how-we-ship-1a2b3c' });
    expect(within(preview).getByRole('link', { name: 'medium.com/@ana/how-we-ship-1a2b3c' })).toBeInTheDocument();
    expect(within(preview).queryByRole('presentation')).not.toBeInTheDocument();
  });

  it('names the rule that refused a local address, though it starts with https://', async () => {
    // Prepare
    const { api, user, dialog, field } = await openShareForm();

    // Act
    await user.type(field, 'https://intranet:3700/pub/x');

    // Assess
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      "Public addresses onlyThat is a local address (such as localhost), which only your own computer or network can open: share the story's public address.",
    );
    expect(alert).not.toHaveTextContent('starting with http');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(api.calls(routes.shareStoryByUrl)).toHaveLength(0);
  });

  it('says so when the story was shared by the sharer already, with the way to it and no feed link', async () => {
    // Prepare
    const { user, dialog, field } = await openShareForm({
      share: {
        body: {
          story: story('older', {
            title: 'Older story',
            currentUserRelation: { didRedirect: true, isSharer: true, didUpvote: false },
          }),
          duplicate: true,
        },
      },
    });

    // Act
    await user.type(field, 'https://blog.example.com/older');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    expect(await within(dialog).findByRole('status')).toHaveTextContent('You already shared this story: here it is.');
    expect(within(dialog).getByRole('link', { name: 'Older story' })).toHaveAttribute('href', '/api/i/stories/story/older/go');
    expect(within(dialog).queryByRole('link', { name: 'See it in New' })).not.toBeInTheDocument();
  });

  it('says when the sharer has shared too much this hour', async () => {
    // Prepare
    const { user, dialog, field } = await openShareForm({
      share: {
        status: 429,
        body: {
          message: 'You have shared 30 stories this hour. Try again in 12 minutes.',
          code: 'RATE_LIMITED',
          retryAfterSeconds: 720,
        },
      },
    });

    // Act
    await user.type(field, 'https://blog.example.com/one-more');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    // Assess
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Slow down');
    expect(alert).toHaveTextContent('You have shared 30 stories this hour. Try again in 12 minutes.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('button', { name: 'Share' })).toBeEnabled();
  });

  it('asks a visitor to log in first', async () => {
    // Prepare
    const { user, page } = renderStories({ user: null });

    // Act
    await user.click(await page.findByRole('button', { name: 'Share a story' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: /log in/i })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Share a story' })).not.toBeInTheDocument();
  });
});
