import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { Comment } from '../api/story-keys';
import { ana, makeStory } from '../test-utils/fixtures';
import { StoryPage } from './story-page';

const janePerson = { userId: jane.userId, username: jane.username, name: jane.name, imageUrl: null };
const bo = { userId: 'u-bo', username: 'bo', name: 'Bo Chen', imageUrl: null };

const comment = (id: string, overrides: Partial<Comment> = {}): Comment => ({
  id,
  storyId: 's1',
  parentId: null,
  depth: 0,
  state: 'visible',
  author: ana,
  body: `Comment ${id}`,
  html: '<p>not what the page renders</p>',
  createdAt: '2026-11-24T10:00:00.000Z',
  editedAt: null,
  replyCount: 0,
  editableUntil: null,
  ...overrides,
});

/** Ana's comment with a reply from Bo and a reply to that, a deleted one with a reply, and one a moderator removed. */
const discussion: Comment[] = [
  comment('cmt-01', { body: 'First, with **strong** words <script>alert(1)</script>', replyCount: 1 }),
  comment('cmt-02', { parentId: 'cmt-01', depth: 1, author: bo, body: 'Bo answers', replyCount: 1 }),
  comment('cmt-03', { parentId: 'cmt-02', depth: 2, body: 'Ana again' }),
  comment('cmt-04', { state: 'deleted', author: null, body: null, replyCount: 1 }),
  comment('cmt-05', { parentId: 'cmt-04', depth: 1, author: bo, body: 'Under a deleted one' }),
  comment('cmt-06', { state: 'removed', author: null, body: null }),
];

function renderStory(
  options: {
    user?: typeof jane | null;
    comments?: StubAnswer<typeof routes.listStoryComments>;
    add?: StubAnswer<typeof routes.addStoryComment>;
    edit?: StubAnswer<typeof routes.editStoryComment>;
    remove?: StubAnswer<typeof routes.deleteStoryComment>;
  } = {},
) {
  const user = options.user === undefined ? jane : options.user;
  const api = stubRoutes(
    stubRoute(routes.getStory, { body: { story: makeStory('s1', { title: 'Shipping daily', commentCount: 5 }) } }),
    stubRoute(routes.listStoryComments, options.comments ?? { body: { items: discussion, nextCursor: null, commentCount: 5 } }),
    stubRoute(
      routes.addStoryComment,
      options.add ??
        ((request) => {
          const body = request.body as { body: string; parentId?: string };
          const parent = discussion.find((item) => item.id === body.parentId);
          return {
            status: 201,
            body: {
              comment: comment('new', {
                author: janePerson,
                body: body.body,
                parentId: body.parentId ?? null,
                depth: parent ? parent.depth + 1 : 0,
                editableUntil: '2099-01-01T00:00:00.000Z',
              }),
              commentCount: 6,
            },
          };
        }),
    ),
    stubRoute(
      routes.editStoryComment,
      options.edit ??
        ((request) => ({
          body: {
            comment: comment(request.params.commentId ?? '', {
              author: janePerson,
              body: (request.body as { body: string }).body,
              editedAt: '2026-11-24T10:05:00.000Z',
              editableUntil: '2099-01-01T00:00:00.000Z',
            }),
            commentCount: 5,
          },
        })),
    ),
    stubRoute(routes.deleteStoryComment, options.remove ?? { body: { comment: null, commentCount: 4 } }),
    stubRoute(routes.reportStoryComment, { body: { reported: true, isNew: true } }),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    // The login modal asks for a bot check whenever it opens.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({ path: '/stories/s1', user, pages: [{ path: 'stories/:id', Component: StoryPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

const commentsList = (page: ReturnType<typeof within>) => page.findByRole('list', { name: /^Comments/ });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('StoryPage', () => {
  it('shows the story and its threads nested to a visitor, with placeholders, and folds a thread away', async () => {
    // Prepare
    const { user, page } = renderStory({ user: null });
    const list = await commentsList(page);

    // Assess: the story is the page's heading; each reply sits in its parent's list
    expect(page.getByRole('heading', { level: 1, name: 'Shipping daily' })).toBeInTheDocument();
    expect(page.getByRole('heading', { level: 2, name: 'Comments (5)' })).toBeInTheDocument();
    const first = within(list).getAllByRole('article', { name: 'Comment by Ana Lima' })[0] as HTMLElement;
    expect(within(first).getByText('strong', { selector: 'strong' })).toBeInTheDocument();
    expect(first).toHaveTextContent('<script>alert(1)</script>');
    expect(first.querySelector('script')).toBeNull();
    const replies = within(list).getByRole('list', { name: 'Replies to Comment by Ana Lima' });
    expect(within(replies).getByRole('article', { name: 'Comment by Bo Chen' })).toHaveTextContent('Bo answers');
    expect(within(replies).getByRole('list', { name: 'Replies to Comment by Bo Chen' })).toHaveTextContent('Ana again');
    expect(within(list).getByRole('article', { name: 'Deleted comment' })).toHaveTextContent('[deleted]');
    expect(within(list).getByRole('list', { name: 'Replies to Deleted comment' })).toHaveTextContent('Under a deleted one');
    expect(within(list).getByRole('article', { name: 'Removed comment' })).toHaveTextContent('[removed]');
    // A visitor reads, and is asked to log in to take part
    expect(within(list).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    expect(page.queryByRole('textbox', { name: 'Your comment' })).not.toBeInTheDocument();

    // Act: fold Ana's thread
    const fold = within(first).getByRole('button', { name: 'Hide 2 replies' });
    expect(fold).toHaveAttribute('aria-expanded', 'true');
    await user.click(fold);

    // Assess
    expect(within(first).getByRole('button', { name: 'Show 2 replies' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(list).getByText('Bo answers')).not.toBeVisible();

    // Act: unfold it
    await user.click(within(first).getByRole('button', { name: 'Show 2 replies' }));

    // Assess
    expect(within(list).getByText('Bo answers')).toBeVisible();
  });

  it("opens the login modal from a visitor's Log in to comment", async () => {
    // Prepare
    const { user, page } = renderStory({ user: null });

    // Act
    await user.click(await page.findByRole('button', { name: 'Log in to comment' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('loads the next page of comments by its cursor', async () => {
    // Prepare
    const { api, user, page } = renderStory({
      comments: (request) =>
        request.url.searchParams.get('cursor') === 'page-2'
          ? { body: { items: [comment('cmt-09', { body: 'From the second page' })], nextCursor: null, commentCount: 2 } }
          : { body: { items: [comment('cmt-08', { body: 'From the first page' })], nextCursor: 'page-2', commentCount: 2 } },
    });
    await page.findByText('From the first page');

    // Act
    await user.click(page.getByRole('button', { name: 'Show more comments' }));

    // Assess
    expect(await page.findByText('From the second page')).toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Show more comments' })).not.toBeInTheDocument();
    expect(api.calls(routes.listStoryComments).map((call) => call.url.searchParams.get('cursor'))).toEqual([null, 'page-2']);
  });

  it("checks a comment with the API's own schema, posts it once, and shows it with the new count", async () => {
    // Prepare: the API answers when the test lets it
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { api, user, page } = renderStory({
      add: async () => {
        await answered;
        return {
          status: 201,
          body: {
            comment: comment('new', { author: janePerson, body: 'Great read', editableUntil: '2099-01-01T00:00:00.000Z' }),
            commentCount: 6,
          },
        };
      },
    });
    const field = await page.findByRole('textbox', { name: 'Your comment' });

    // Act: nothing but spaces
    await user.type(field, '   ');
    await user.click(page.getByRole('button', { name: 'Post comment' }));

    // Assess
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('the comment is empty'));
    expect(api.calls(routes.addStoryComment)).toHaveLength(0);

    // Act: a real comment, clicked twice while it is being sent
    await user.clear(field);
    await user.type(field, 'Great read');
    await user.click(page.getByRole('button', { name: 'Post comment' }));
    const pending = page.getByRole('button', { name: 'Posting…' });
    expect(pending).toBeDisabled();
    await user.click(pending);
    answer();

    // Assess: posted once, shown last, the field empty again, the count moved
    const list = await commentsList(page);
    expect(await within(list).findByRole('article', { name: 'Comment by Jane Doe' })).toHaveTextContent('Great read');
    expect(api.calls(routes.addStoryComment)).toHaveLength(1);
    expect(api.calls(routes.addStoryComment)[0]?.body).toEqual({ body: 'Great read' });
    expect(field).toHaveValue('');
    expect(page.getByRole('heading', { name: 'Comments (6)' })).toBeInTheDocument();
  });

  it('shows why the API refused a comment: the wait after too many', async () => {
    // Prepare
    const { user, page } = renderStory({
      add: {
        status: 429,
        body: {
          message: 'You are commenting very fast. Take a breath and post again in 40 seconds.',
          code: 'RATE_LIMITED',
          retryAfterSeconds: 40,
        },
      },
    });

    // Act
    await user.type(await page.findByRole('textbox', { name: 'Your comment' }), 'One more');
    await user.click(page.getByRole('button', { name: 'Post comment' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('post again in 40 seconds');
    expect(page.getByRole('textbox', { name: 'Your comment' })).toHaveValue('One more');
  });

  it('replies under a comment, at the end of its thread', async () => {
    // Prepare
    const { api, user, page } = renderStory();
    const list = await commentsList(page);
    const [bosComment] = within(list).getAllByRole('article', { name: 'Comment by Bo Chen' }) as [HTMLElement];

    // Act
    await user.click(within(bosComment).getByRole('button', { name: 'Reply' }));
    await user.type(within(bosComment).getByRole('textbox', { name: 'Reply to Bo Chen' }), 'Agreed');
    await user.click(within(bosComment).getByRole('button', { name: 'Post reply' }));

    // Assess: the reply is in Bo's thread, after the reply already there
    const bosReplies = within(list).getByRole('list', { name: 'Replies to Comment by Bo Chen' });
    expect(await within(bosReplies).findByRole('article', { name: 'Comment by Jane Doe' })).toHaveTextContent('Agreed');
    expect(
      within(bosReplies)
        .getAllByRole('article')
        .map((article) => article.textContent),
    ).toEqual([expect.stringContaining('Ana again'), expect.stringContaining('Agreed')]);
    expect(within(bosComment).queryByRole('textbox')).not.toBeInTheDocument();
    expect(api.calls(routes.addStoryComment)[0]?.body).toEqual({ body: 'Agreed', parentId: 'cmt-02' });
  });

  it.each([
    [403, 'FORBIDDEN', 'You cannot reply to this comment: you or its author has blocked the other.'],
    [410, 'GONE', 'This comment was deleted by its author.'],
  ])('shows why a reply was refused (%i)', async (status, code, message) => {
    // Prepare
    const { user, page } = renderStory({ add: { status, body: { message, code } } });
    const list = await commentsList(page);
    const [bosComment] = within(list).getAllByRole('article', { name: 'Comment by Bo Chen' }) as [HTMLElement];

    // Act
    await user.click(within(bosComment).getByRole('button', { name: 'Reply' }));
    await user.type(within(bosComment).getByRole('textbox', { name: 'Reply to Bo Chen' }), 'Too late');
    await user.click(within(bosComment).getByRole('button', { name: 'Post reply' }));

    // Assess
    expect(await within(bosComment).findByRole('alert')).toHaveTextContent(message);
    expect(within(bosComment).getByRole('textbox', { name: 'Reply to Bo Chen' })).toHaveValue('Too late');
  });

  it('lets its author edit a comment within the window the API gives, and not after', async () => {
    // Prepare: one comment still editable, one past its window
    const { api, user, page } = renderStory({
      comments: {
        body: {
          items: [
            comment('mine', { author: janePerson, body: 'Tpyo here', editableUntil: '2099-01-01T00:00:00.000Z' }),
            comment('old', { author: janePerson, body: 'Written long ago', editableUntil: null }),
          ],
          nextCursor: null,
          commentCount: 2,
        },
      },
    });
    const list = await commentsList(page);
    const [mine, old] = within(list).getAllByRole('article', { name: 'Comment by Jane Doe' }) as [HTMLElement, HTMLElement];

    // Assess: no report of one's own comments; edit only within the window
    expect(within(old).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(old).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();

    // Act
    await user.click(within(mine).getByRole('button', { name: 'Edit' }));
    const field = within(mine).getByRole('textbox', { name: 'Edit your comment' });
    expect(field).toHaveValue('Tpyo here');
    await user.clear(field);
    await user.type(field, 'Typo fixed');
    await user.click(within(mine).getByRole('button', { name: 'Save' }));

    // Assess
    await waitFor(() => expect(mine).toHaveTextContent('Typo fixed'));
    expect(mine).toHaveTextContent('(edited)');
    expect(api.calls(routes.editStoryComment)[0]).toMatchObject({
      params: { id: 's1', commentId: 'mine' },
      body: { body: 'Typo fixed' },
    });
  });

  it('hides Edit once the window closes while the page is open', async () => {
    // Prepare: a window that closes in a moment
    const soon = new Date(Date.now() + 2_000).toISOString();
    const { page } = renderStory({
      comments: {
        body: { items: [comment('mine', { author: janePerson, editableUntil: soon })], nextCursor: null, commentCount: 1 },
      },
    });
    const list = await commentsList(page);
    const mine = within(list).getByRole('article', { name: 'Comment by Jane Doe' });
    expect(within(mine).getByRole('button', { name: 'Edit' })).toBeInTheDocument();

    // Assess
    await waitFor(() => expect(within(mine).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument(), {
      timeout: 4_000,
    });
  });

  it('deletes its own comment after asking, leaving "[deleted]" over the replies', async () => {
    // Prepare
    const mine = comment('mine', { author: janePerson, body: 'My take', replyCount: 1 });
    const { api, user, page } = renderStory({
      comments: {
        body: {
          items: [mine, comment('reply-01', { parentId: 'mine', depth: 1, author: bo, body: 'Bo disagrees' })],
          nextCursor: null,
          commentCount: 2,
        },
      },
      remove: {
        body: { comment: { ...mine, state: 'deleted', author: null, body: null, html: '<p>[deleted]</p>' }, commentCount: 1 },
      },
    });
    const list = await commentsList(page);

    // Act
    await user.click(
      within(within(list).getByRole('article', { name: 'Comment by Jane Doe' })).getByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete your comment?' });
    expect(dialog).toHaveTextContent('the replies under it stay');
    await user.click(within(dialog).getByRole('button', { name: 'Delete comment' }));

    // Assess
    expect(await within(list).findByRole('article', { name: 'Deleted comment' })).toHaveTextContent('[deleted]');
    expect(within(list).getByText('Bo disagrees')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(page.getByRole('heading', { name: 'Comments (1)' })).toBeInTheDocument();
    expect(api.calls(routes.deleteStoryComment)[0]?.params).toEqual({ id: 's1', commentId: 'mine' });
  });

  it("reports someone else's comment with a reason", async () => {
    // Prepare
    const { api, user, page } = renderStory();
    const list = await commentsList(page);
    const [bosComment] = within(list).getAllByRole('article', { name: 'Comment by Bo Chen' }) as [HTMLElement];

    // Act
    await user.click(within(bosComment).getByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this comment' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Reason' }), 'abuse');
    await user.type(within(dialog).getByRole('textbox', { name: 'Details (optional)' }), 'Insults');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(routes.reportStoryComment)[0]).toMatchObject({
      params: { id: 's1', commentId: 'cmt-02' },
      body: { reason: 'abuse', details: 'Insults' },
    });
  });

  it('says when there is no such story', async () => {
    // Prepare
    const api = stubRoutes(
      stubRoute(routes.getStory, { status: 404, body: { message: 'There is no story with id gone12.', code: 'NOT_FOUND' } }),
      stubRoute(routes.getMe, { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    );
    renderShell({ path: '/stories/gone12', user: null, pages: [{ path: 'stories/:id', Component: StoryPage }] });

    // Assess
    expect(await screen.findByRole('heading', { name: 'There is no such story' })).toBeInTheDocument();
    expect(api.calls(routes.getStory)[0]?.params).toEqual({ id: 'gone12' });
  });
});
