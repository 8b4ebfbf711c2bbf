/** Steps the browser suites share: waiting for what a page shows, and saying what it showed instead when it does not come. */
import type { Locator, Page } from 'playwright-core';

/** The API's failed answers to each page, as the page got them: what a failing step reports. */
const failedAnswers = new WeakMap<Page, string[]>();

export function recordFailedAnswers(page: Page): void {
  const seen: string[] = [];
  failedAnswers.set(page, seen);
  page.on('response', (response) => {
    if (response.status() < 400 || !new URL(response.url()).pathname.startsWith('/api/')) return;
    const request = response.request();
    void response
      .text()
      .catch(() => '(no body)')
      .then((body) => seen.push(`${request.method()} ${response.url()} → ${response.status()} ${body.slice(0, 500)}`));
  });
}

/** Waits for `locator`; when it does not come, the failure says what the page showed instead, and what the API answered. */
export async function shown(page: Page, locator: Locator, timeout?: number): Promise<void> {
  try {
    await locator.waitFor(timeout === undefined ? {} : { timeout });
  } catch (error) {
    const text = await page
      .getByRole('main')
      .innerText()
      .catch(() => '(no main element)');
    const answers = failedAnswers.get(page)?.join('\n') || '(none)';
    throw new Error(
      `${(error as Error).message}\nThe page (${page.url()}) showed instead:\n${text}\nFailed API answers:\n${answers}`,
      {
        cause: error,
      },
    );
  }
}

/** The text of a definition list's term and its value, as innerText gives them ("Status\nActive"). */
export const fact = (term: string, value: string) => new RegExp(`${term}\\s+${value.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}`);
