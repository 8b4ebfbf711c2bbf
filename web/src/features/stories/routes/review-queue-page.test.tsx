import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { Story } from '../api/story-keys';
import { makeStory } from '../test-utils/fixtures';
import { ReviewQueuePage } from './review-queue-page';

const editor = { ...jane, isSuperUser: true };

const submitted = (id: string): Story =>
  makeStory(id, {
    review: { state: 'submitted', submittedAt: '2026-11-24T09:00:00.000Z', decidedAt: null },
    likeCount: 0,
    commentCount: 0,
    createdAt: '2026-11-24T08:00:00.000Z',
    currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false },
  });

function renderQueue(options: { user?: typeof jane | null; decide?: StubAnswer<typeof routes.decideStoryReview> } = {}) {
  const api = stubRoutes(
    stubRoute(routes.claimStoryAuthor, (request) => ({
      body: {
        story: {
          ...submitted(request.params.id ?? ''),
          claimedAuthor:
            request.params.status === 'on' ? { userId: editor.userId, username: 'jane', name: 'Jane Doe', imageUrl: null } : null,
        },
      },
    })),
    stubRoute(routes.listReviewQueue, { body: { items: [submitted('s1'), submitted('s2')], nextCursor: null } }),
    stubRoute(
      routes.decideStoryReview,
      options.decide ??
        ((request) => ({
          body: {
            story: {
              ...submitted(request.params.id ?? ''),
              review: {
                state: request.params.decision === 'accept' ? ('accepted' as const) : ('rejected' as const),
                submittedAt: null,
                decidedAt: null,
              },
            },
          },
        })),
    ),
  );
  renderShell({
    path: '/stories/review',
    user: options.user === undefined ? editor : options.user,
    pages: [{ path: 'stories/review', Component: ReviewQueuePage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ReviewQueuePage', () => {
  it('lists the submitted stories; accepting or rejecting one takes it off the list', async () => {
    // Prepare
    const { api, user, page } = renderQueue();
    const queue = await page.findByRole('list', { name: 'Stories waiting for review' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Accept “Story s1”' }));

    // Assess
    await vi.waitFor(() => expect(within(queue).queryByRole('article', { name: 'Story s1' })).not.toBeInTheDocument());
    expect(api.calls(routes.decideStoryReview)[0]?.params).toEqual({ id: 's1', decision: 'accept' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Reject “Story s2”' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Nothing to review' })).toBeInTheDocument();
    expect(api.calls(routes.decideStoryReview)[1]?.params).toEqual({ id: 's2', decision: 'reject' });
  });

  it('keeps a story whose decision failed, and says why', async () => {
    // Prepare
    const { user, page } = renderQueue({
      decide: { status: 409, body: { message: 'This story is no longer waiting for review.', code: 'CONFLICT' } },
    });
    const queue = await page.findByRole('list', { name: 'Stories waiting for review' });

    // Act
    await user.click(within(queue).getByRole('button', { name: 'Accept “Story s1”' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('This story is no longer waiting for review.');
    expect(within(queue).getByRole('article', { name: 'Story s1' })).toBeInTheDocument();
  });

  it('tells someone who is not an editor that the page is not for them, and asks for nothing', async () => {
    // Prepare
    const { api, page } = renderQueue({ user: jane });

    // Assess
    expect(await page.findByRole('heading', { name: 'This page is for the editors' })).toBeInTheDocument();
    expect(api.calls(routes.listReviewQueue)).toHaveLength(0);
  });

  it("shows what an editor does on a queued story's card, such as claiming it", async () => {
    // Prepare
    const { api, user, page } = renderQueue();
    const queue = await page.findByRole('list', { name: 'Stories waiting for review' });
    const card = within(queue).getByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'I wrote this' }));

    // Assess
    expect(await within(card).findByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/@jane');
    expect(within(card).getByRole('button', { name: 'I wrote this' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls(routes.claimStoryAuthor)[0]?.params).toEqual({ id: 's1', status: 'on' });
  });

  it('asks a visitor to log in, and asks for nothing', async () => {
    // Prepare
    const { api, page } = renderQueue({ user: null });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to review stories' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(api.calls(routes.listReviewQueue)).toHaveLength(0);
  });
});
