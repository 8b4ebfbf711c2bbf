import { render } from '@testing-library/react';
import { MemoryRouter, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchRoute } from '../app/router';
import { PrefetchLink } from '../components/prefetch-link';
import { PREFETCH_MARGIN_PX, setRoutePrefetcher } from './prefetch';

/** jsdom has no IntersectionObserver: this one records its options and lets a test bring a link near. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit | undefined,
  ) {
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
  }
  takeRecords() {
    return [];
  }
  /** The link comes within the observer's margin of the viewport. */
  static bringNear(target: Element) {
    for (const instance of FakeIntersectionObserver.instances) {
      if (!instance.targets.has(target)) continue;
      instance.callback([{ target, isIntersecting: true } as IntersectionObserverEntry], instance as unknown as IntersectionObserver);
    }
  }
}

let prefetched: string[];

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  // A class of its own per test: lib/prefetch.ts makes its shared observer afresh for a new class.
  vi.stubGlobal('IntersectionObserver', class extends FakeIntersectionObserver {});
  prefetched = [];
  setRoutePrefetcher((pathname) => prefetched.push(pathname));
});

afterEach(() => setRoutePrefetcher(undefined));

function renderLinks(...targets: string[]) {
  const view = render(
    <MemoryRouter initialEntries={['/']}>
      {targets.map((to) => (
        <PrefetchLink key={to} to={to}>
          {to}
        </PrefetchLink>
      ))}
    </MemoryRouter>,
  );
  const link = (to: string) => view.getByText(to);
  return { ...view, link };
}

describe('link prefetch', () => {
  it("watches every link with one observer and the spec's 200 px margin", () => {
    // Act
    const { link } = renderLinks('/pub/a', '/topics', '/about');

    // Assess
    expect(PREFETCH_MARGIN_PX).toBe(200);
    expect(FakeIntersectionObserver.instances).toHaveLength(1);
    const [observer] = FakeIntersectionObserver.instances;
    expect(observer?.options?.rootMargin).toBe('200px');
    expect([...(observer?.targets ?? [])]).toEqual([link('/pub/a'), link('/topics'), link('/about')]);
  });

  it('prefetches what a link leads to once it comes near the viewport, and not before', () => {
    // Prepare
    const { link } = renderLinks('/pub/a', '/topics');

    // Act
    const before = [...prefetched];
    FakeIntersectionObserver.bringNear(link('/pub/a'));

    // Assess
    expect(before).toEqual([]);
    expect(prefetched).toEqual(['/pub/a']);
    expect(FakeIntersectionObserver.instances[0]?.targets.has(link('/pub/a'))).toBe(false);
  });

  it('prefetches a path once, however many links lead there', () => {
    // Prepare
    const view = render(
      <MemoryRouter>
        <PrefetchLink to="/topics">first</PrefetchLink>
        <PrefetchLink to="/topics">second</PrefetchLink>
      </MemoryRouter>,
    );

    // Act
    FakeIntersectionObserver.bringNear(view.getByText('first'));
    FakeIntersectionObserver.bringNear(view.getByText('second'));

    // Assess
    expect(prefetched).toEqual(['/topics']);
  });

  it('prefetches nothing when the person saves data', () => {
    // Prepare
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { connection: { saveData: true } }));

    // Act
    const { link } = renderLinks('/pub/a');
    FakeIntersectionObserver.bringNear(link('/pub/a'));

    // Assess
    expect(prefetched).toEqual([]);
  });

  it('prefetches nothing for a link to another host', () => {
    // Act
    const { link } = renderLinks('https://elsewhere.example/pub/a', '//elsewhere.example/topics');
    FakeIntersectionObserver.bringNear(link('https://elsewhere.example/pub/a'));
    FakeIntersectionObserver.bringNear(link('//elsewhere.example/topics'));

    // Assess
    expect(prefetched).toEqual([]);
    expect(FakeIntersectionObserver.instances.flatMap((observer) => [...observer.targets])).toEqual([]);
  });

  it('stops watching a link that leaves the page', () => {
    // Prepare
    const { unmount } = renderLinks('/pub/a');

    // Act
    unmount();

    // Assess
    expect(FakeIntersectionObserver.instances[0]?.targets.size).toBe(0);
  });

  it('does nothing where the browser has no IntersectionObserver', () => {
    // Prepare
    vi.stubGlobal('IntersectionObserver', undefined);

    // Act
    renderLinks('/pub/a');

    // Assess
    expect(prefetched).toEqual([]);
  });
});

describe('prefetchRoute', () => {
  it("loads the lazy code of the routes a path matches, and only theirs", async () => {
    // Prepare
    const loaded: string[] = [];
    const lazyPage = (name: string) => async () => {
      loaded.push(name);
      return { Component: () => null };
    };
    const routes: RouteObject[] = [
      {
        children: [
          { path: 'pub/:slug', lazy: lazyPage('publication') },
          { path: 'topics', lazy: lazyPage('topics') },
        ],
      },
    ];

    // Act
    prefetchRoute('/pub/the-daily', routes);
    await Promise.resolve();

    // Assess
    expect(loaded).toEqual(['publication']);
  });
});
