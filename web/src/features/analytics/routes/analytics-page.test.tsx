import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { AnalyticsFigures } from '@shared/schemas/analytics';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { AnalyticsPage } from './analytics-page';

const owner = { ...jane, isSuperUser: true };

const dates = (count: number) =>
  Array.from({ length: count }, (_, index) => new Date(Date.UTC(2026, 10, 1 + index)).toISOString().slice(0, 10));

function figures(days: number): AnalyticsFigures {
  const period = dates(days);
  return {
    generatedAt: '2026-11-30T10:15:00.000Z',
    days: period.map((date, index) => ({ date, activeUsers: index === 2 ? 40 : 10, events: 100 })),
    funnel: {
      steps: [
        { name: 'Form opened', users: 200 },
        { name: 'Files added', users: 150 },
        { name: 'Send clicked', users: 90 },
        { name: 'Finalized', users: 80 },
      ],
      conversion: 0.4,
    },
    finalizeTiming: { count: 80, p50Ms: 4_200, p90Ms: 65_000 },
    upgrades: period.map((date, index) => ({ date, started: index === 0 ? 3 : 0, completed: index === 0 ? 2 : 0 })),
    storefront: period.map((date, index) => ({
      date,
      purchases: index === 1 ? 2 : 0,
      revenue:
        index === 1
          ? [
              { currency: 'USD', amountMinor: 2_500 },
              { currency: 'EUR', amountMinor: 1_000 },
            ]
          : [],
    })),
  };
}

function renderAnalytics(options: { user?: typeof jane | null; answer?: StubAnswer<typeof routes.getAnalyticsFigures> } = {}) {
  const api = stubRoutes(
    stubRoute(
      routes.getAnalyticsFigures,
      options.answer ?? ((request) => ({ body: figures(Number(request.url.searchParams.get('days') ?? 30)) })),
    ),
  );
  renderShell({
    path: '/analytics',
    user: options.user === undefined ? owner : options.user,
    pages: [{ path: 'analytics', Component: AnalyticsPage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AnalyticsPage', () => {
  it('shows a superuser the figures at a glance: totals, charts, the funnel and send times', async () => {
    // Prepare
    const { page, api } = renderAnalytics();

    // Assess: the totals
    await page.findByRole('figure', { name: 'Events by day' });
    const totals = page.getAllByRole('term').map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(totals).toEqual(
      expect.arrayContaining([
        'Most active users in a day: 40',
        'Events: 3,000',
        'Transfer conversion: 40%',
        'Upgrades: 2',
        'Median (p50): 4.2 s',
        'p90: 1 min 5 s',
        'Purchases: 2',
        'Revenue (EUR): €10.00',
        'Revenue (USD): $25.00',
      ]),
    );
    // Assess: a chart per figure, named by what it shows
    for (const name of [
      'Active users by day',
      'Events by day',
      'Upgrades started by day',
      'Upgrades completed by day',
      'Storefront purchases by day',
    ]) {
      expect(page.getByRole('figure', { name })).toBeInTheDocument();
    }
    expect(page.getByRole('img', { name: /^Active users by day: at most 40 in a day over 30 days/ })).toBeInTheDocument();
    // Assess: the funnel, each step with its people and share of the first
    const funnel = page.getByRole('table', { name: 'Transfer funnel' });
    expect(
      within(funnel)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'StepPeopleOf those who opened the form',
      'Form opened200100%',
      'Files added15075%',
      'Send clicked9045%',
      'Finalized8040%',
    ]);
    expect(page.getByText(/^Figures as of 30 November/)).toBeInTheDocument();
    expect(api.calls(routes.getAnalyticsFigures).map((request) => request.url.searchParams.get('days'))).toEqual(['30']);
  });

  it('changes the period on request', async () => {
    // Prepare
    const { page, api, user } = renderAnalytics();
    await page.findByRole('figure', { name: 'Events by day' });

    // Act
    await user.click(page.getByRole('button', { name: 'Last 7 days' }));

    // Assess
    expect(await page.findByRole('img', { name: /^Active users by day: at most 40 in a day over 7 days/ })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(page.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'false');
    expect(api.calls(routes.getAnalyticsFigures).map((request) => request.url.searchParams.get('days'))).toEqual(['30', '7']);
  });

  it('tells someone who is not a superuser they are not allowed, and asks nothing of the server', async () => {
    // Prepare
    const { page, api } = renderAnalytics({ user: jane });

    // Assess
    expect(await page.findByRole('heading', { name: 'You are not allowed to see this page' })).toBeInTheDocument();
    expect(page.queryByRole('figure')).not.toBeInTheDocument();
    expect(api.calls(routes.getAnalyticsFigures)).toHaveLength(0);
  });

  it('asks a visitor to log in', async () => {
    // Prepare
    const { page, api } = renderAnalytics({ user: null });

    // Assess
    expect(await page.findByRole('heading', { name: 'Log in to see the figures' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(api.calls(routes.getAnalyticsFigures)).toHaveLength(0);
  });

  it('says when the figures cannot be loaded, and loads them on Retry', async () => {
    // Prepare
    let fail = true;
    const { page, user } = renderAnalytics({
      answer: () =>
        fail ? { status: 503, body: { message: 'The figures are not available.', code: 'UNAVAILABLE' } } : { body: figures(30) },
    });
    const alert = await page.findByRole('alert');
    expect(alert).toHaveTextContent('The figures could not be loaded');
    expect(alert).toHaveTextContent('The figures are not available.');

    // Act
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await page.findByRole('figure', { name: 'Events by day' })).toBeInTheDocument();
  });

  it('says so when nothing has been aggregated yet', async () => {
    // Prepare
    const empty: AnalyticsFigures = {
      ...figures(30),
      generatedAt: null,
      funnel: { steps: figures(30).funnel.steps.map((step) => ({ ...step, users: 0 })), conversion: 0 },
      finalizeTiming: { count: 0, p50Ms: null, p90Ms: null },
    };
    const { page } = renderAnalytics({ answer: { body: empty } });

    // Assess
    expect(await page.findByText('No figures yet: the analytics job has not aggregated any events.')).toBeInTheDocument();
    expect(page.getByText('Median (p50)').nextElementSibling).toHaveTextContent('–');
    expect(within(page.getByRole('table', { name: 'Transfer funnel' })).getAllByRole('row')[1]).toHaveTextContent(
      'Form opened00%',
    );
  });
});
