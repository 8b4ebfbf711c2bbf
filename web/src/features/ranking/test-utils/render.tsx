import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { UserSettings } from '@shared/schemas/account';
import { type CurrentUser, setCurrentUser } from '../../../lib/current-user';
import { LoginModalProvider } from '../../../lib/login-modal';
import { createQueryClient } from '../../../lib/query-client';
import { setUserSettings } from '../../../lib/user-settings';
import { clearWhenTestEnds, createTestRouter } from '../../../test/test-scoped';
import {
  FastestGrowingActivePage,
  FastestGrowingPage,
  MostFollowedActivePage,
  MostFollowedPage,
  RecentlyActiveActivePage,
  RecentlyActivePage,
  TopicGrowingPage,
  TopicPage,
  TopicRecentPage,
} from '../routes/board-pages';
import { ArchiveIndexPage, ArchivePage } from '../routes/archive-page';
import { PublicationPage } from '../routes/publication-page';
import { SearchPage } from '../routes/search-page';
import { TopicsPage } from '../routes/topics-page';

/**
 * The feature's pages on the app's own paths (web/src/app/router.tsx), in memory; `as` signs a
 * person in, with their settings.
 */
export function renderPages(
  path: string,
  as?: { user: CurrentUser; settings: UserSettings },
  { appRetries = false }: { appRetries?: boolean } = {},
) {
  const queryClient = clearWhenTestEnds(createQueryClient());
  if (as) {
    setCurrentUser(queryClient, as.user);
    setUserSettings(queryClient, as.user.userId, as.settings);
  }
  // No automatic retries in tests unless asked (`appRetries` keeps the app's): a failure shows at once and Retry is the user's.
  if (!appRetries) queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createTestRouter(
    [
      { path: '/', Component: MostFollowedPage },
      { path: '/active', Component: MostFollowedActivePage },
      { path: '/growing', Component: FastestGrowingPage },
      { path: '/growing/active', Component: FastestGrowingActivePage },
      { path: '/recent', Component: RecentlyActivePage },
      { path: '/recent/active', Component: RecentlyActiveActivePage },
      { path: '/topic/:tag', Component: TopicPage },
      { path: '/topic/:tag/growing', Component: TopicGrowingPage },
      { path: '/topic/:tag/recent', Component: TopicRecentPage },
      { path: '/topics', Component: TopicsPage },
      { path: '/topics/:page', Component: TopicsPage },
      { path: '/search', Component: SearchPage },
      { path: '/pub/:slug', Component: PublicationPage },
      { path: '/archive', Component: ArchiveIndexPage },
      { path: '/archive/:year/:month', Component: ArchivePage },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <LoginModalProvider>
        <RouterProvider router={router} />
      </LoginModalProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** jsdom has no IntersectionObserver: this one lets a test say when the sentinel comes into view. */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
    FakeIntersectionObserver.instances = FakeIntersectionObserver.instances.filter((instance) => instance !== this);
  }
  takeRecords() {
    return [];
  }
  /** Every live observer sees its targets intersecting. */
  static intersectAll() {
    for (const instance of [...FakeIntersectionObserver.instances]) {
      const entries = [...instance.targets].map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      if (entries.length) instance.callback(entries, instance as unknown as IntersectionObserver);
    }
  }
}

class FakeResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** Browser APIs jsdom lacks, for the virtual list and media queries. */
export function installBrowserPolyfills() {
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList,
  );
  window.scrollTo = () => {};
}
