import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { FollowedPublication } from '@shared/schemas/ranking';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makePublication } from '../test-utils/fixtures';
import { FollowingPage } from './following-page';

function followedItem(rank: number, growthRank: number, name: string): FollowedPublication {
  const { rank: _rank, ...standing } = makePublication(rank, { name, slug: name.toLowerCase().replace(/ /g, '-') });
  return { ...standing, ranks: { followers: rank, growth: growthRank }, followedAt: '2026-11-20T10:00:00.000Z' };
}

function renderFollowing(user: CurrentUser | null, items: FollowedPublication[], path = '/following') {
  const api = stubRoutes(
    stubRoute(routes.listFollowedPublications, { body: { items, generatedAt: '2026-11-21T12:00:00.000Z' } }),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const rendered = renderShell({ path, user, pages: [{ path: 'following', Component: FollowingPage }] });
  return { api, ...rendered, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

/** Each body row's rank and the publication it names. */
function rowsOf(table: HTMLElement): [string, string][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [rank] = within(row).getAllByRole('cell');
      const name = ['Data Letter', 'Glass Poetry'].find((candidate) => row.textContent?.includes(candidate)) ?? '';
      return [rank?.textContent ?? '', name];
    });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FollowingPage', () => {
  it('ranks what the reader follows by their place on the overall board, by followers or by growth', async () => {
    // Prepare
    const items = [followedItem(40, 3, 'Glass Poetry'), followedItem(7, 90, 'Data Letter')];
    const { page, user } = renderFollowing(jane, items);

    // Act
    const byFollowers = await page.findByRole('table', { name: 'Publications you follow' });
    const followersOrder = rowsOf(byFollowers);
    await user.click(page.getByRole('link', { name: 'Fastest growing' }));

    // Assess
    expect(followersOrder).toEqual([
      ['7', 'Data Letter'],
      ['40', 'Glass Poetry'],
    ]);
    await waitFor(() => expect(page.getByRole('link', { name: 'Fastest growing' })).toHaveAttribute('aria-current', 'page'));
    expect(rowsOf(page.getByRole('table', { name: 'Publications you follow' }))).toEqual([
      ['3', 'Glass Poetry'],
      ['90', 'Data Letter'],
    ]);
    expect(page.getByRole('link', { name: 'Following' })).toHaveAttribute('aria-current', 'page');
  });

  it('says how to follow when the reader follows nothing', async () => {
    // Prepare
    const { page } = renderFollowing(jane, []);

    // Assess
    expect(await page.findByRole('heading', { name: 'You follow no publications yet' })).toBeInTheDocument();
  });

  it('asks a visitor to log in, without asking the server for their list', async () => {
    // Prepare
    const { page, user, api } = renderFollowing(null, []);

    // Act
    await user.click(await page.findByRole('button', { name: 'Log in' }));

    // Assess
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(api.calls(routes.listFollowedPublications)).toHaveLength(0);
  });
});
