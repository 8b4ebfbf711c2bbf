import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { ProChargeView, ProPaymentsView, ProRefundView } from '../api/pro-refund-keys';
import { makePayment } from '../test-utils/fixtures';
import { ProRefundsPage } from './pro-refunds-page';

const superuser = { ...jane, isSuperUser: true };
const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });

const charge = (overrides: Partial<ProChargeView> = {}): ProChargeView => ({
  payment: makePayment({ transactionId: 'txn_1', description: 'Transfer Pro, monthly', chargedAt: '2026-11-26T10:00:00.000Z' }),
  subscriptionId: 'sub_1',
  refunded: usd(0),
  left: usd(1_200),
  refundsAsked: [],
  ...overrides,
});

const refundOf = (overrides: Partial<ProRefundView> = {}): ProRefundView => ({
  refundId: 'txn_1_r1',
  number: 1,
  status: 'succeeded',
  operation: 'refund',
  amount: usd(400),
  reason: 'Outage last week',
  subscriptionCanceled: false,
  failure: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  completedAt: '2026-11-27T10:00:01.000Z',
  ...overrides,
});

const ana = (charges: ProChargeView[]): ProPaymentsView => ({
  person: { userId: 'ana', username: 'ana', email: 'ana@example.com' },
  subscription: { subscriptionId: 'sub_1', status: 'Active', paidThroughDate: '2026-12-25' },
  charges,
});

function renderRefundsPage(answers: ProPaymentsView[], { user = superuser, extra = [] as RouteStub[] } = {}) {
  let served = 0;
  const api = stubRoutes(
    ...extra,
    stubRoute(routes.listProPaymentsOfPerson, () => ({ body: answers[Math.min(served++, answers.length - 1)] ?? ana([]) })),
  );
  renderShell({ path: '/pro-refunds', user, pages: [{ path: 'pro-refunds', Component: ProRefundsPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

async function findAna(page: ReturnType<typeof within>, user: ReturnType<typeof userEvent.setup>) {
  const search = await page.findByRole('search', { name: 'Find a person' });
  await user.type(within(search).getByRole('textbox', { name: 'Username or email' }), 'ana@example.com');
  await user.click(within(search).getByRole('button', { name: 'Find' }));
  const charges = await page.findByRole('list', { name: 'Pro charges' });
  return within(charges).getByRole('listitem', { name: /^Transfer Pro, monthly/ });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProRefundsPage', () => {
  it('finds a person, refunds part of a charge with a reason and cancels the subscription, then shows what is left', async () => {
    // Prepare
    const refunded = charge({ refunded: usd(400), left: usd(800), refundsAsked: [refundOf({ subscriptionCanceled: true })] });
    const { page, user, api } = renderRefundsPage([ana([charge()]), ana([refunded])], {
      extra: [stubRoute(routes.refundProCharge, { body: { refund: refundOf({ subscriptionCanceled: true }), charge: refunded } })],
    });
    const row = await findAna(page, user);

    // Act
    const form = within(row).getByRole('form', { name: /^Refund Transfer Pro, monthly/ });
    await user.type(within(form).getByRole('textbox', { name: 'Amount to refund (USD)' }), '4.00');
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Outage last week');
    await user.click(within(form).getByRole('checkbox', { name: 'Also cancel their subscription' }));
    await user.click(within(form).getByRole('button', { name: 'Refund' }));

    // Assess
    expect(api.calls(routes.listProPaymentsOfPerson)[0]?.url.searchParams.get('person')).toBe('ana@example.com');
    expect(api.calls(routes.refundProCharge).map((request) => [request.params, request.body])).toEqual([
      [{ transactionId: 'txn_1' }, { amountMinor: 400, reason: 'Outage last week', cancelSubscription: true, knownRefunds: 0 }],
    ]);
    const after = await within(await page.findByRole('list', { name: 'Pro charges' })).findByText(/\$8\.00 left/);
    expect(after).toBeInTheDocument();
    expect(within(row).getByRole('status')).toHaveTextContent(/\$4\.00 refunded on .*: Outage last week \(subscription canceled\)/);
    const asked = within(row).getByRole('list', { name: 'Refunds asked' });
    expect(within(asked).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^\$4\.00 refunded on .*: Outage last week \(subscription canceled\)$/),
    ]);
  });

  it('shows the server’s refusal of more than is left, and refuses a refund without a reason before asking', async () => {
    // Prepare
    const { page, user, api } = renderRefundsPage([ana([charge()])], {
      extra: [
        stubRoute(routes.refundProCharge, {
          status: 409,
          body: {
            code: 'REFUND_TOO_LARGE',
            message: 'Only $12.00 is left to refund on this payment: refund that much or less.',
          },
        }),
      ],
    });
    const row = await findAna(page, user);
    const form = within(row).getByRole('form', { name: /^Refund Transfer Pro, monthly/ });

    // Act
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    const callsWithoutReason = api.calls(routes.refundProCharge).length;
    await user.type(within(form).getByRole('textbox', { name: 'Amount to refund (USD)' }), '13');
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Goodwill');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));

    // Assess
    expect(callsWithoutReason).toBe(0);
    expect(await within(form).findByRole('alert')).toHaveTextContent('Only $12.00 is left to refund on this payment');
    expect(api.calls(routes.refundProCharge)).toHaveLength(1);
  });

  it('offers no refund of a charge refunded in full, and lists the void that returned it', async () => {
    // Prepare
    const { page, user } = renderRefundsPage([
      ana([charge({ refunded: usd(1_200), left: usd(0), refundsAsked: [refundOf({ amount: usd(1_200), operation: 'void' })] })]),
    ]);

    // Act
    const row = await findAna(page, user);

    // Assess
    expect(within(row).queryByRole('form')).not.toBeInTheDocument();
    expect(within(within(row).getByRole('list', { name: 'Refunds asked' })).getByRole('listitem')).toHaveTextContent(
      /^\$12\.00 voided on/,
    );
  });

  it('is for superusers only', async () => {
    // Act
    const { page } = renderRefundsPage([], { user: jane });

    // Assess
    expect(await page.findByText('This page is for superusers')).toBeInTheDocument();
    expect(page.queryByRole('search')).not.toBeInTheDocument();
  });
});
