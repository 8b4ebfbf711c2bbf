import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, Page, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeStory } from '../test-utils/fixtures';
import { UserStories } from './user-stories';

const story = (id: string) =>
  makeStory(id, {
    likeCount: 1,
    commentCount: 0,
    createdAt: '2026-11-24T08:00:00.000Z',
    currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false },
  });

function renderUserStories(answer: StubAnswer<typeof routes.readUserFeed>) {
  const api = stubRoutes(stubRoute(routes.readUserFeed, answer));
  renderShell({
    path: '/@ana',
    user: jane,
    pages: [
      {
        path: '@ana',
        element: (
          <Page name="Ana">
            <UserStories userId="u-ana" name="Ana Lima" />
          </Page>
        ),
      },
    ],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UserStories', () => {
  it("lists the person's stories and pages on with More stories", async () => {
    // Prepare
    const { api, user, page } = renderUserStories((request) =>
      request.url.searchParams.get('cursor')
        ? { body: { items: [story('s3')], nextCursor: null } }
        : { body: { items: [story('s1'), story('s2')], nextCursor: 'next-page' } },
    );
    const section = await page.findByRole('region', { name: 'Stories shared' });
    await within(section).findByRole('article', { name: 'Story s1' });

    // Act
    await user.click(within(section).getByRole('button', { name: 'More stories' }));

    // Assess
    expect(await within(section).findByRole('article', { name: 'Story s3' })).toBeInTheDocument();
    expect(within(section).getAllByRole('article')).toHaveLength(3);
    expect(within(section).queryByRole('button', { name: 'More stories' })).not.toBeInTheDocument();
    expect(api.calls(routes.readUserFeed)[1]?.url.searchParams.get('cursor')).toBe('next-page');
  });

  it('says when the person has shared nothing', async () => {
    // Prepare
    const empty = renderUserStories({ body: { items: [], nextCursor: null } });

    // Assess
    expect(await empty.page.findByText('Ana Lima has not shared any stories yet.')).toBeInTheDocument();
  });

  it('offers a retry when the stories could not be loaded', async () => {
    // Prepare
    const { page } = renderUserStories({ status: 503, body: { message: 'Try again soon', code: 'SERVICE_UNAVAILABLE' } });

    // Assess
    const alert = await page.findByRole('alert');
    expect(alert).toHaveTextContent('The stories could not be loaded.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
