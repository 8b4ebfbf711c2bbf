import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { MerchantOrderRefundsView, RefundView } from '../api/merchant-keys';
import { MerchantHomePage } from '../routes/merchant-home-page';
import { makeAccount, merchantDashboard } from '../test-utils/fixtures';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });
const INVOICE_ID = 'inv_sale_0000001';

const order = (overrides: Partial<MerchantOrderRefundsView> = {}): MerchantOrderRefundsView => ({
  invoiceId: INVOICE_ID,
  lines: [
    {
      index: 0,
      productStockGradeId: 'grd_aaaaaaaaaaaaaaaaaaaa',
      description: 'Zine club, Single issue',
      billing: 'once',
      quantity: 2,
      amount: usd(2_000),
      refunded: false,
    },
    {
      index: 1,
      productStockGradeId: 'grd_bbbbbbbbbbbbbbbbbbbb',
      description: 'Zine club, Monthly club',
      billing: 'subscription',
      quantity: 1,
      amount: usd(1_500),
      refunded: false,
    },
  ],
  total: usd(3_500),
  refunded: usd(0),
  left: usd(3_500),
  paidAt: '2026-11-20T10:00:00.000Z',
  refunds: [],
  ...overrides,
});

const refundOf = (overrides: Partial<RefundView> = {}): RefundView => ({
  refundId: `${INVOICE_ID}_r1`,
  number: 1,
  status: 'succeeded',
  scope: 'amount',
  amount: usd(500),
  reason: 'Late delivery',
  lines: [],
  operations: [{ kind: 'refund', amount: usd(500) }],
  canceledSubscriptions: 0,
  failure: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  completedAt: '2026-11-21T10:00:01.000Z',
  ...overrides,
});

function renderDashboard(stubs: RouteStub[]) {
  const api = stubRoutes(
    ...stubs,
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.getMyMerchantAccount, { body: makeAccount() }),
    stubRoute(routes.showMerchantDashboard, { body: merchantDashboard() }),
    stubRoute(routes.listMyStockedProducts, { body: { items: [], cursor: null } }),
    stubRoute(routes.listMyUnstockedProducts, { body: { items: [], cursor: null } }),
  );
  renderShell({ path: '/merchant', user: jane, pages: [{ path: 'merchant', Component: MerchantHomePage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

async function openRefund(page: ReturnType<typeof within>, user: ReturnType<typeof userEvent.setup>) {
  await user.click(await page.findByRole('button', { name: 'Refund Zine club, Single issue × 2 to Sam Buyer' }));
  const dialog = await screen.findByRole('dialog', { name: 'Refund order' });
  await within(dialog).findByText(/Left to refund/);
  return within(dialog);
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('RefundDialog', () => {
  it('offers a refund of orders only, not of renewals, and shows what is left and the refunds so far', async () => {
    // Prepare
    const { page, user } = renderDashboard([
      stubRoute(routes.listStoreOrderRefunds, {
        body: order({ refunded: usd(500), left: usd(3_000), refunds: [refundOf()] }),
      }),
    ]);

    const sales = await page.findByRole('region', { name: 'Recent sales' });
    // The renewal in the recent sales has no order of its own to refund.
    expect(within(sales).getAllByRole('button', { name: /^Refund/ })).toHaveLength(1);

    // Act
    const dialog = await openRefund(page, user);

    // Assess
    expect(dialog.getByText(/Left to refund: \$30\.00/)).toBeInTheDocument();
    expect(dialog.getByRole('region', { name: 'Refunds so far' })).toHaveTextContent('$5.00 refunded');
    expect(dialog.getByRole('region', { name: 'Refunds so far' })).toHaveTextContent('Late delivery');
  });

  it('refunds an amount with a reason, naming the refunds it saw, and closes with the amount refunded', async () => {
    // Prepare
    const { page, user, api } = renderDashboard([
      stubRoute(routes.listStoreOrderRefunds, {
        body: order({ refunds: [refundOf({ status: 'failed', failure: 'Declined' })] }),
      }),
      stubRoute(routes.refundStoreOrder, {
        body: { refund: refundOf({ number: 2, amount: usd(1_250) }), order: order({ refunded: usd(1_250), left: usd(2_250) }) },
      }),
    ]);
    const dialog = await openRefund(page, user);

    // Act
    await user.click(dialog.getByRole('radio', { name: /An amount/ }));
    await user.type(dialog.getByRole('textbox', { name: 'Amount (USD)' }), '12.50');
    await user.type(dialog.getByRole('textbox', { name: 'Reason' }), 'Scratched cover');
    await user.click(dialog.getByRole('button', { name: 'Refund' }));

    // Assess
    expect(await screen.findByText('$12.50 refunded')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Refund order' })).not.toBeInTheDocument();
    expect(api.calls(routes.refundStoreOrder).map((request) => [request.params, request.body])).toEqual([
      [{ invoiceId: INVOICE_ID }, { reason: 'Scratched cover', amountMinor: 1_250, knownRefunds: 1 }],
    ]);
  });

  it('refunds a chosen subscription line and cancels its subscription when asked; refunded lines cannot be chosen', async () => {
    // Prepare
    const refundedFirst = order({
      lines: order().lines.map((line) => (line.index === 0 ? { ...line, refunded: true } : line)),
      refunded: usd(2_000),
      left: usd(1_500),
    });
    const { page, user, api } = renderDashboard([
      stubRoute(routes.listStoreOrderRefunds, { body: refundedFirst }),
      stubRoute(routes.refundStoreOrder, {
        body: { refund: refundOf({ scope: 'items', amount: usd(1_500), canceledSubscriptions: 1 }), order: refundedFirst },
      }),
    ]);
    const dialog = await openRefund(page, user);
    await user.click(dialog.getByRole('radio', { name: /Chosen items/ }));
    expect(dialog.queryByRole('checkbox', { name: /Also cancel the subscription/ })).not.toBeInTheDocument();
    expect(dialog.getByRole('checkbox', { name: /Single issue/ })).toBeDisabled();

    // Act
    await user.click(dialog.getByRole('checkbox', { name: /Monthly club/ }));
    await user.click(dialog.getByRole('checkbox', { name: /Also cancel the subscription/ }));
    await user.type(dialog.getByRole('textbox', { name: 'Reason' }), 'Did not want a subscription');
    await user.click(dialog.getByRole('button', { name: 'Refund' }));

    // Assess
    expect(await screen.findByText('$15.00 refunded')).toBeInTheDocument();
    expect(api.calls(routes.refundStoreOrder).map((request) => request.body)).toEqual([
      { reason: 'Did not want a subscription', lineIndexes: [1], cancelSubscription: true, knownRefunds: 0 },
    ]);
  });

  it('asks for a reason and an amount within what is left before sending anything', async () => {
    // Prepare
    const { page, user, api } = renderDashboard([stubRoute(routes.listStoreOrderRefunds, { body: order({ left: usd(1_000) }) })]);
    const dialog = await openRefund(page, user);

    // Act
    await user.click(dialog.getByRole('radio', { name: /An amount/ }));
    await user.type(dialog.getByRole('textbox', { name: 'Amount (USD)' }), '15');
    await user.click(dialog.getByRole('button', { name: 'Refund' }));

    // Assess
    expect(dialog.getByRole('textbox', { name: 'Amount (USD)' })).toHaveAccessibleDescription(
      /At most \$10\.00 is left to refund/,
    );
    expect(dialog.getByRole('textbox', { name: 'Reason' })).toHaveAccessibleDescription(/Say why the order is refunded/);
    expect(api.calls(routes.refundStoreOrder)).toHaveLength(0);
  });

  it("shows the API's refusal, naming what is left, and keeps the dialog open", async () => {
    // Prepare
    const { page, user } = renderDashboard([
      stubRoute(routes.listStoreOrderRefunds, { body: order() }),
      stubRoute(routes.refundStoreOrder, {
        status: 409,
        body: { code: 'REFUND_TOO_LARGE', message: 'Only $20.00 is left to refund on this order: refund that much or less.' },
      }),
    ]);
    const dialog = await openRefund(page, user);

    // Act
    await user.type(dialog.getByRole('textbox', { name: 'Reason' }), 'Broken');
    await user.click(dialog.getByRole('button', { name: 'Refund' }));

    // Assess
    expect(await dialog.findByRole('alert')).toHaveTextContent('Only $20.00 is left to refund');
    expect(screen.getByRole('dialog', { name: 'Refund order' })).toBeInTheDocument();
  });
});
