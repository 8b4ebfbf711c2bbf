import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { StoreSubscriptionView } from '../api/store-keys';
import { ids, makeOrder, makeSubscription, shopPaymentClient, stubLocalGateway } from '../test-utils/fixtures';
import { OrdersPage } from './orders-page';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });
const NOT_EXPECTED = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } };

function renderOrders({
  subscriptions,
  orders = { body: { items: [makeOrder()], cursor: null } },
  cancel = NOT_EXPECTED,
  addOn = NOT_EXPECTED,
  removeAddOn = NOT_EXPECTED,
  updateCard = NOT_EXPECTED,
}: {
  subscriptions: () => StoreSubscriptionView[];
  orders?: StubAnswer<typeof routes.listMyOrders>;
  cancel?: StubAnswer<typeof routes.cancelStoreSubscription>;
  addOn?: StubAnswer<typeof routes.addStoreSubscriptionAddOn>;
  removeAddOn?: StubAnswer<typeof routes.removeStoreSubscriptionAddOn>;
  updateCard?: StubAnswer<typeof routes.updateStoreSubscriptionPaymentMethod>;
}) {
  const api = stubRoutes(
    stubRoute(routes.listMySubscriptions, () => ({ body: { items: subscriptions() } })),
    stubRoute(routes.listMyOrders, orders),
    stubRoute(routes.cancelStoreSubscription, cancel),
    stubRoute(routes.addStoreSubscriptionAddOn, addOn),
    stubRoute(routes.removeStoreSubscriptionAddOn, removeAddOn),
    stubRoute(routes.updateStoreSubscriptionPaymentMethod, updateCard),
    stubRoute(routes.getShopPaymentClient, { body: shopPaymentClient }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const tokenized = stubLocalGateway(api);
  const rendered = renderShell({ path: '/store/orders', user: jane, pages: [{ path: 'store/orders', Component: OrdersPage }] });
  return { ...rendered, api, tokenized, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

beforeEach(() => {
  // The add-on's prorated estimate counts the days to the next billing day from today.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-16T12:00:00.000Z') });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('OrdersPage', () => {
  it('lists the subscriptions with their next charge, card and add-ons, and the orders a page at a time', async () => {
    // Prepare
    const older = makeOrder({
      invoiceId: 'inv_order_00000002',
      shop: { id: ids.otherShop, handle: 'ink-shop', shopName: 'Ink & Co' },
      lines: [{ ...makeOrder().lines[0]!, discount: usd(600) }],
      total: usd(2400),
      discount: { code: 'SPRING', saving: usd(600) },
      card: null,
      paidAt: '2026-10-02T09:30:00.000Z',
    });
    const { page, user } = renderOrders({
      subscriptions: () => [makeSubscription()],
      orders: ({ url }) =>
        url.searchParams.get('cursor') === 'next'
          ? { body: { items: [older], cursor: null } }
          : { body: { items: [makeOrder()], cursor: 'next' } },
    });

    // Assess: the subscription
    const subscription = await page.findByRole('article', { name: 'Ink club, Ink of the month' });
    expect(subscription).toHaveTextContent('From The Pen Shop');
    expect(subscription).toHaveTextContent('Active');
    expect(subscription).toHaveTextContent('Price$10.00 every month');
    expect(subscription).toHaveTextContent('Next charge$15.00 on 1 December 2026');
    expect(subscription).toHaveTextContent('CardVisa ending 1111, expires 12/2030');
    expect(within(subscription).getByRole('region', { name: 'Add-ons' })).toHaveTextContent('Gift wrap: $5.00 every month');

    // Assess: the orders
    const orders = page.getByRole('region', { name: 'Orders' });
    const first = await within(orders).findByRole('article', { name: 'The Pen Shop' });
    expect(first).toHaveTextContent('Paid 2 November 2026');
    expect(within(first).getByRole('list', { name: 'What you bought' })).toHaveTextContent(
      'Dot-grid notebook, A5 × 2$30.00Ink club, Ink of the month (subscription, first period)$10.00',
    );
    expect(first).toHaveTextContent('Total$40.00');
    expect(first).toHaveTextContent('Paid with Visa ending 1111');

    // Act
    await user.click(within(orders).getByRole('button', { name: 'Load more' }));

    // Assess
    const olderOrder = await within(orders).findByRole('article', { name: 'Ink & Co' });
    expect(olderOrder).toHaveTextContent('Paid 2 October 2026');
    expect(within(olderOrder).getByRole('list', { name: 'What you bought' })).toHaveTextContent('Discount (SPRING)−$6.00');
    expect(olderOrder).toHaveTextContent('Total$24.00');
    expect(within(orders).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('cancels a subscription only once confirmed', async () => {
    // Prepare: the list follows the cancellation
    let subscription = makeSubscription();
    const { page, user, api } = renderOrders({
      subscriptions: () => [subscription],
      cancel: () => {
        subscription = makeSubscription({ status: 'Canceled', canceledAt: '2026-11-16T12:00:00.000Z', nextBillingDate: null });
        return { body: true };
      },
    });
    const card = await page.findByRole('article', { name: 'Ink club, Ink of the month' });

    // Act: open the confirmation, and keep the subscription
    await user.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });

    // Assess
    expect(dialog).toHaveAccessibleDescription(
      'Nothing more will be charged for Ink club, Ink of the month. You have paid through 30 November 2026.',
    );

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));

    // Assess: nothing sent, and focus back on the button that opened it
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(card).getByRole('button', { name: 'Cancel subscription' })).toHaveFocus();
    expect(api.calls(routes.cancelStoreSubscription)).toHaveLength(0);

    // Act: cancel for real
    await user.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(card).toHaveTextContent('Next chargeNone: canceled on 16 November 2026'));
    expect(card).toHaveTextContent('Canceled');
    expect(within(card).queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Update card' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('heading', { name: 'Ink club, Ink of the month' })).toHaveFocus());
    expect(api.calls(routes.cancelStoreSubscription).map((request) => request.params)).toEqual([
      { subscriptionProductId: 'sub_ink_000001' },
    ]);
    expect(await screen.findByText('Your subscription to Ink club is canceled')).toBeInTheDocument();
  });

  it('adds an add-on, explaining the prorated charge now, and says why a declined charge changed nothing', async () => {
    // Prepare: the first charge is declined, the second goes through
    let subscription = makeSubscription();
    let attempts = 0;
    const { page, user, api } = renderOrders({
      subscriptions: () => [subscription],
      addOn: () => {
        attempts += 1;
        if (attempts === 1) {
          return { status: 402, body: { message: 'Your bank declined the charge for the add-on.', code: 'PAYMENT_DECLINED' } };
        }
        subscription = makeSubscription({
          addOns: [...makeSubscription().addOns, { addOnId: 'extra-seat', name: 'Extra bottle', quantity: 2, price: usd(200) }],
        });
        return { body: true };
      },
    });
    const card = await page.findByRole('article', { name: 'Ink club, Ink of the month' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Add an add-on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an add-on' });
    expect(within(dialog).getByRole('combobox', { name: 'Add-on' })).toHaveDisplayValue('Extra bottle, $2.00 every month');
    const quantity = within(dialog).getByRole('spinbutton', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '2');

    // Assess: what it costs, per cycle and today (15 of the cycle's 30 days are left)
    expect(dialog).toHaveTextContent(
      '$4.00 more every month from now on. Today you are charged for the rest of the current period only, prorated: about $1.87 for the 14 days until 1 December 2026.',
    );

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Add and pay now' }));

    // Assess: the decline, in the dialog, which stays
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your bank declined the charge for the add-on.');

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Add and pay now' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(within(card).getByRole('region', { name: 'Add-ons' })).toHaveTextContent('Extra bottle × 2: $4.00 every month'),
    );
    expect(api.calls(routes.addStoreSubscriptionAddOn).map((request) => [request.params, request.body])).toEqual([
      [{ subscriptionProductId: 'sub_ink_000001' }, { addOnId: 'extra-seat', quantity: 2 }],
      [{ subscriptionProductId: 'sub_ink_000001' }, { addOnId: 'extra-seat', quantity: 2 }],
    ]);
  });

  it('removes an add-on once confirmed', async () => {
    // Prepare
    let subscription = makeSubscription();
    const { page, user, api } = renderOrders({
      subscriptions: () => [subscription],
      removeAddOn: () => {
        subscription = makeSubscription({ addOns: [] });
        return { body: true };
      },
    });
    const card = await page.findByRole('article', { name: 'Ink club, Ink of the month' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Remove Gift wrap' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Gift wrap?' });
    expect(dialog).toHaveAccessibleDescription(
      'It is no longer charged from your next billing day, 1 December 2026. What you paid for the current period is not refunded.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove add-on' }));

    // Assess
    await waitFor(() => expect(within(card).queryByRole('region', { name: 'Add-ons' })).not.toBeInTheDocument());
    expect(api.calls(routes.removeStoreSubscriptionAddOn).map((request) => request.params)).toEqual([
      { subscriptionProductId: 'sub_ink_000001', addOnId: 'priority-support' },
    ]);
  });

  it('puts a new card on a past-due subscription with the shop’s card form, paying what is owed', async () => {
    // Prepare
    let subscription = makeSubscription({ status: 'Past Due', balance: usd(1500) });
    const { page, user, api, tokenized } = renderOrders({
      subscriptions: () => [subscription],
      updateCard: () => {
        subscription = makeSubscription({ paymentMethod: { cardType: 'Visa', last4: '1111', expirationDate: '12/2031' } });
        return { body: true };
      },
    });
    const card = await page.findByRole('article', { name: 'Ink club, Ink of the month' });
    expect(card).toHaveTextContent('The last payment failed. Update your card to pay the $15.00 owing.');

    // Act
    await user.click(within(card).getByRole('button', { name: 'Update card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update your card' });
    const form = await within(dialog).findByRole('form', { name: 'New card' });
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card and pay $15.00' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(card).toHaveTextContent('CardVisa ending 1111, expires 12/2031'));
    expect(card).toHaveTextContent('Active');
    expect(api.calls(routes.getShopPaymentClient).map((request) => request.params)).toEqual([{ merchantAccountId: ids.shop }]);
    expect(api.calls(routes.updateStoreSubscriptionPaymentMethod).map((request) => request.body)).toEqual([
      { paymentMethodNonce: 'tokencc_1_1111' },
    ]);
    expect(tokenized).toHaveLength(1);
  });

  it("shows an order's refunds: what was given back, when, and why", async () => {
    // Prepare
    const refunded = makeOrder({
      refunded: usd(1_500),
      refunds: [
        {
          refundId: 'inv_order_00000001_r1',
          number: 1,
          status: 'succeeded',
          scope: 'items',
          amount: usd(1_500),
          reason: 'Out of stock',
          lines: [{ description: makeOrder().lines[0]!.description, quantity: 1, amount: usd(1_500) }],
          operations: [{ kind: 'refund', amount: usd(1_500) }],
          canceledSubscriptions: 0,
          failure: null,
          createdAt: '2026-11-03T09:00:00.000Z',
          completedAt: '2026-11-03T09:00:01.000Z',
        },
      ],
    });

    // Act
    const { page } = renderOrders({ subscriptions: () => [], orders: { body: { items: [refunded], cursor: null } } });

    // Assess
    const refunds = await page.findByRole('list', { name: 'Refunds' });
    expect(refunds).toHaveTextContent('Refunded');
    expect(refunds).toHaveTextContent(`${makeOrder().lines[0]!.description}. Out of stock`);
    expect(refunds).toHaveTextContent('−$15.00');
  });
});
