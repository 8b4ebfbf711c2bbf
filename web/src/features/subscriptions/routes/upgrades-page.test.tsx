import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { UpgradesScreen } from '../api/subscription-keys';
import { makeSubscription, upgradesScreen } from '../test-utils/fixtures';
import { UpgradesPage } from './upgrades-page';

function renderUpgrades(screenData: UpgradesScreen, user: CurrentUser | null = jane) {
  const api = stubRoutes(stubRoute(routes.showUpgradesScreen, { body: screenData }), stubRoute(routes.getMe, { body: jane }));
  const rendered = renderShell({ path: '/upgrades', user, pages: [{ path: 'upgrades', Component: UpgradesPage }] });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UpgradesPage', () => {
  it('shows Free and Pro side by side, and switches Pro between the monthly and the yearly price', async () => {
    // Prepare
    const { page, user } = renderUpgrades(upgradesScreen());

    // Assess: both plans with what each allows, Free marked as Jane's, Pro at the monthly price
    const free = await page.findByRole('region', { name: 'Free' });
    const pro = page.getByRole('region', { name: 'Pro' });
    expect(page.getByRole('heading', { level: 1, name: 'Transfer Pro' })).toBeInTheDocument();
    expect(free).toHaveTextContent('Your plan');
    expect(free).toHaveTextContent('Largest transfer2 GB');
    expect(free).toHaveTextContent('Transfers kept for up to7 days');
    expect(free).toHaveTextContent('Recipients per transfer50');
    expect(pro).toHaveTextContent('Largest transfer200 GB');
    expect(pro).toHaveTextContent('Transfers kept for up to365 days');
    expect(pro).toHaveTextContent('Recipients per transfer500');
    expect(free).toHaveTextContent('Password-protected transfersNo');
    expect(pro).toHaveTextContent('Password-protected transfersYes');
    expect(pro).toHaveTextContent('$12.00a month, cancel any time');
    expect(page.getByRole('radio', { name: /^Monthly/ })).toBeChecked();
    expect(within(pro).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?price=pro-monthly');

    // Act
    await user.click(page.getByRole('radio', { name: /^Yearly/ }));

    // Assess: the yearly price, what it comes to a month and what it saves; the upgrade buys it
    expect(page.getByRole('radio', { name: /^Yearly/ })).toBeChecked();
    expect(page.getByRole('radio', { name: /^Yearly/ })).toHaveAccessibleName('Yearly $120.00 a year: $10.00 a month, save 17%');
    expect(pro).toHaveTextContent('$120.00a year: $10.00 a month, you save $24.00 (17%)');
    expect(within(pro).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?price=pro-yearly');
  });

  it('tells someone on Pro so, with the way to their subscription instead of a second purchase', async () => {
    // Prepare
    const { page } = renderUpgrades(upgradesScreen({ currentPlan: PLAN_LIMITS.pro, subscription: makeSubscription() }));

    // Assess
    const pro = await page.findByRole('region', { name: 'Pro' });
    expect(within(pro).getByRole('status')).toHaveTextContent('You’re on Pro.');
    expect(within(pro).getByRole('link', { name: 'Manage your subscription' })).toHaveAttribute('href', '/subscription');
    expect(page.queryByRole('link', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
    expect(page.getByRole('region', { name: 'Free' })).not.toHaveTextContent('Your plan');
  });

  it('sends a visitor to the checkout, which has them log in first', async () => {
    // Prepare
    const { page } = renderUpgrades(upgradesScreen({ signedIn: false }), null);

    // Assess
    const pro = await page.findByRole('region', { name: 'Pro' });
    expect(within(pro).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/checkout?price=pro-monthly');
    expect(pro).toHaveTextContent('You log in first, then pay.');
    expect(page.getByRole('region', { name: 'Free' })).not.toHaveTextContent('Your plan');
  });
  it('offers a canceled subscriber with paid time left to resume Pro, with the day it would renew', async () => {
    // Prepare
    const canceled = makeSubscription({
      status: 'Canceled',
      nextBillingDate: null,
      canceledAt: '2026-11-27T10:00:00.000Z',
      resumeRenewsOn: '2026-12-26',
    });
    const { page } = renderUpgrades(upgradesScreen({ currentPlan: PLAN_LIMITS.pro, subscription: canceled }));

    // Assess
    const pro = await page.findByRole('region', { name: 'Pro' });
    expect(within(pro).getByRole('status')).toHaveTextContent('Your subscription is canceled: Pro until 25 December 2026.');
    expect(pro).toHaveTextContent('it renews on 26 December 2026');
    expect(within(pro).getByRole('button', { name: 'Resume Pro' })).toBeEnabled();
  });
});
