import '../../../test/dom-polyfills';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { pageRoutes } from '../../../app/router';
import { createTestQueryClient } from '../../../test/render-shell';
import { routes } from '../../../../../shared/routes';
import { publicUser, stubAccountApi, stubPublicUser } from '../test-utils/account-fixtures';

const janesProfileCalls = (api: ReturnType<typeof stubAccountApi>) => api.calls(routes.getUserByIdOrUsername, { id: 'jane' });

function renderApp(path: string) {
  const api = stubAccountApi(stubPublicUser(publicUser({ username: 'jane', name: 'Jane Doe' })));
  const router = createMemoryRouter(pageRoutes, { initialEntries: [path] });
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
