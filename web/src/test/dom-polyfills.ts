/**
 * What jsdom lacks and the shell's libraries use (Radix popper and dialogs, sonner, the router's
 * scroll restoration). src/test/setup.ts loads this for every test file, so every file sees the
 * same window whichever file shared it before, and calls restoreDomPolyfills() after each test.
 */
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', { value: ResizeObserverStub, writable: true, configurable: true });
}

if (!Element.prototype.hasPointerCapture) {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.setPointerCapture = () => {};
  Element.prototype.releasePointerCapture = () => {};
}

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// jsdom's Blob has no text() (every browser's has); the bulk import reads its file with it.
if (!Blob.prototype.text) {
  Blob.prototype.text = function text(this: Blob) {
    return new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
      reader.readAsText(this);
    });
  };
}

// jsdom's scrollTo logs "Not implemented"; the router's scroll restoration calls it.
const scrollTo = (() => {}) as typeof window.scrollTo;
window.scrollTo = scrollTo;

setMatchMedia(() => false);

// Tests scroll the page by redefining these (jsdom does no layout, so they stay 0 otherwise).
const SCROLL_POSITIONS = ['scrollX', 'scrollY', 'pageXOffset', 'pageYOffset'] as const;
const scrollPositions = SCROLL_POSITIONS.map((name) => [name, Object.getOwnPropertyDescriptor(window, name)] as const);

/**
 * Puts back what a test may have changed here: scrollTo, a device that matches no media query,
 * and the page scrolled to the top.
 */
export function restoreDomPolyfills(): void {
  window.scrollTo = scrollTo;
  setMatchMedia(() => false);
  for (const [name, descriptor] of scrollPositions) {
    if (descriptor) Object.defineProperty(window, name, descriptor);
    else Reflect.deleteProperty(window, name);
  }
}

/**
 * Make `window.matchMedia(query).matches` follow `matches(query)`. Call again to change the
 * answer; returns a function that fires 'change' on every list created so far.
 */
export function setMatchMedia(matches: (query: string) => boolean): () => void {
  const lists: { query: string; listeners: Set<(event: MediaQueryListEvent) => void> }[] = [];
  window.matchMedia = (query: string) => {
    const entry = { query, listeners: new Set<(event: MediaQueryListEvent) => void>() };
    lists.push(entry);
    return {
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => entry.listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => entry.listeners.delete(listener),
      addListener: (listener: (event: MediaQueryListEvent) => void) => entry.listeners.add(listener),
      removeListener: (listener: (event: MediaQueryListEvent) => void) => entry.listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
  };
  return () => {
    for (const entry of lists) {
      for (const listener of entry.listeners)
        listener({ matches: matches(entry.query), media: entry.query } as MediaQueryListEvent);
    }
  };
}

/** A screen narrower or wider than the 768 px breakpoint, as far as max-width queries go. */
export function setScreenWidth(width: number): () => void {
  return setMatchMedia((query) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    const min = /min-width:\s*(\d+)px/.exec(query);
    if (max) return width <= Number(max[1]);
    if (min) return width >= Number(min[1]);
    return false;
  });
}
