import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RouterProvider, type RouteObject } from 'react-router';
import { AppLayout } from '../app/layout/app-layout';
import { AppToaster } from '../app/layout/app-toaster';
import { AppProviders } from '../app/providers';
import { type CurrentUser, setCurrentUser } from '../lib/current-user';
import { clearWhenTestEnds, createTestRouter } from './test-scoped';

export const jane: CurrentUser = {
  userId: 'user-jane',
  username: 'jane',
  name: 'Jane Doe',
  isSuperUser: false,
  imageUrl: null,
  pennameAccountUrl: 'https://penname.example/account/jane',
  numUnseenNotifications: 0,
  ssoAppNumUnseenNotifications: 0,
};

export function createTestQueryClient(user: CurrentUser | null = null): QueryClient {
  const queryClient = clearWhenTestEnds(
    new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity } } }),
  );
  setCurrentUser(queryClient, user);
  return queryClient;
}

interface ShellOptions {
  path?: string;
  user?: CurrentUser | null;
  /** Extra page routes under the layout; each path renders a heading with its name by default. */
  pages?: RouteObject[];
  queryClient?: QueryClient;
}

function Page({ name, children }: { name: string; children?: ReactNode }) {
  return (
    <>
      <h1>{name}</h1>
      {children}
    </>
  );
}

const defaultPages: RouteObject[] = [
  { index: true, element: <Page name="Home page" /> },
  { path: 'active', element: <Page name="Active page" /> },
  { path: 'topics', element: <Page name="Topics page" /> },
  { path: 'growing', element: <Page name="Growing page" /> },
  { path: 'notifications', element: <Page name="Notifications page" /> },
  { path: 'search', element: <Page name="Search page" /> },
  { path: '*', element: <Page name="Catch-all page" /> },
];

/** The real AppLayout inside AppProviders, on an in-memory router at `path`. */
export function renderShell({
  path = '/',
  user = null,
  pages = [],
  queryClient = createTestQueryClient(user),
}: ShellOptions = {}) {
  const router = createTestRouter([{ element: <AppLayout />, children: [...pages, ...defaultPages] }], {
    initialEntries: [path],
  });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** One component alone, with what pages rely on (AppProviders) and the toaster: for shared components. */
export function renderWithProviders(
  ui: ReactNode,
  { queryClient = createTestQueryClient() }: { queryClient?: QueryClient } = {},
) {
  const result = render(
    <AppProviders queryClient={queryClient}>
      {ui}
      <AppToaster />
    </AppProviders>,
  );
  return { ...result, queryClient };
}

export { Page };
