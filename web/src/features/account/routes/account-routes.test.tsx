import { render, screen, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { pageRoutes } from '../../../app/router';
import { createTestQueryClient } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type RouteStub, stubRoute } from '../../../test/stub-routes';
import { createTestRouter } from '../../../test/test-scoped';
import { publicUser, stubAccountApi, stubPublicUser } from '../test-utils/account-fixtures';

const janesProfileCalls = (api: ReturnType<typeof stubAccountApi>) => api.calls(routes.getUserByIdOrUsername, { id: 'jane' });

function renderApp(path: string, ...stubs: RouteStub[]) {
  const api = stubAccountApi(...stubs, stubPublicUser(publicUser({ username: 'jane', name: 'Jane Doe' })));
  const router = createTestRouter(pageRoutes, { initialEntries: [path] });
  render(
    <AppProviders queryClient={createTestQueryClient(null)}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { api, router };
}

async function main() {
  return within(await screen.findByRole('main'));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('account routes', () => {
  it("sends '/@jane' to the profile page", async () => {
    // Prepare
    const { api } = renderApp('/@jane');

    // Assess
    expect(await (await main()).findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeInTheDocument();
    expect(janesProfileCalls(api)).toHaveLength(1);
  });

  it("lists the stories a person shared under their profile on '/@jane'", async () => {
    // Prepare
    const jane = { userId: 'user-jane', username: 'jane', name: 'Jane Doe', imageUrl: null };
    const { api } = renderApp(
      '/@jane',
      stubRoute(routes.readUserFeed, {
        body: {
          items: [
            {
              id: 'story-1',
              url: 'https://blog.example.com/post',
              canonicalUrl: 'https://blog.example.com/post',
              title: 'What we learned',
              description: null,
              imageUrl: null,
              siteName: 'Ship Notes',
              author: null,
              publishedAt: null,
              source: 'page',
              fetchProblem: null,
              sharer: jane,
              claimedAuthor: null,
              review: { state: 'none', submittedAt: null, decidedAt: null },
              likeCount: 2,
              commentCount: 0,
              createdAt: '2026-11-24T08:00:00.000Z',
              currentUserRelation: { didRedirect: false, isSharer: false, didUpvote: false },
            },
          ],
          nextCursor: null,
        },
      }),
    );

    // Assess
    const stories = await (await main()).findByRole('region', { name: 'Stories shared' });
    expect(await within(stories).findByRole('article', { name: 'What we learned' })).toBeInTheDocument();
    expect(api.calls(routes.readUserFeed)[0]?.params).toEqual({ userId: 'user-jane' });
  });

  it("sends '/jane' to not-found without asking for a user", async () => {
    // Prepare
    const { api } = renderApp('/jane');

    // Assess
    expect(await (await main()).findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(janesProfileCalls(api)).toHaveLength(0);
  });

  it("sends '/me' to the dashboard, not to a profile", async () => {
    // Prepare
    renderApp('/me');

    // Assess
    expect(await (await main()).findByRole('heading', { level: 1, name: 'Log in to see your account' })).toBeInTheDocument();
  });

  it("keeps '/about' on the about page", async () => {
    // Prepare
    renderApp('/about');

    // Assess
    expect(await (await main()).findByRole('heading', { level: 1, name: 'What TopPubs measures' })).toBeInTheDocument();
  });
});
