import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { CartInvoice } from '../api/store-keys';
import {
  boxCartItem,
  ids,
  makeCart,
  makeCartItem,
  makeInvoice,
  makeProduct,
  makeShop,
  monthlyBoxGrade,
  shopPaymentClient,
  stubLocalGateway,
} from '../test-utils/fixtures';
import { CartPage } from './cart-page';

const DECLINED = 'Your bank declined this card (Do Not Honor). Nothing was charged: try another card.';
const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });

function renderCart({
  carts,
  fulfill = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
  remove = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
  update = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
  user = jane,
}: {
  /** The cart as each successive GET answers it; the last one repeats. */
  carts: CartInvoice[];
  fulfill?: StubAnswer<typeof routes.fulfillStoreInvoice>;
  remove?: StubAnswer<typeof routes.removeCartItem>;
  update?: StubAnswer<typeof routes.updateCartItemQuantity>;
  user?: CurrentUser | null;
}) {
  let served = 0;
  const api = stubRoutes(
    stubRoute(routes.getCartInvoice, () => ({ body: carts[Math.min(served++, carts.length - 1)]! })),
    stubRoute(routes.getShopPaymentClient, { body: shopPaymentClient }),
    stubRoute(routes.fulfillStoreInvoice, fulfill),
    stubRoute(routes.removeCartItem, remove),
    stubRoute(routes.updateCartItemQuantity, update),
    stubRoute(routes.listMyCarts, { body: { items: [] } }),
    stubRoute(routes.getProductGrade, {
      body: { shop: makeShop(), product: makeProduct({ id: ids.club, title: 'Ink club' }), grade: monthlyBoxGrade() },
    }),
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const tokenized = stubLocalGateway(api);
  const rendered = renderShell({
    path: `/cart/${ids.shop}`,
    user,
    pages: [{ path: 'cart/:merchantAccountId', Component: CartPage }],
  });
  return { ...rendered, api, tokenized, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

/** A cart whose notebook went up since it was added, and with an item no longer sold (left out of the invoice). */
const flaggedCart = () =>
  makeCart({
    items: [
      makeCartItem({ addedUnitPrice: usd(1200), status: 'price-changed' }),
      boxCartItem(),
      makeCartItem({
        id: ids.cartRetired,
        productStockGradeId: ids.retired,
        gradeName: 'Travel size',
        quantity: 1,
        unitPrice: usd(900),
        addedUnitPrice: usd(900),
        status: 'unavailable',
      }),
    ],
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CartPage', () => {
  it('shows each item with its flags, what is due today, and what each subscription costs after', async () => {
    // Prepare
    const { page, api } = renderCart({ carts: [flaggedCart()] });

    // Assess: the items, the changed price and the item no longer sold said in words
    const items = await page.findByRole('region', { name: 'Items' });
    const rows = within(items).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Dot-grid notebook, A5$30.002 × $15.00');
    expect(rows[0]).toHaveTextContent('Price changed: was $12.00, now $15.00.');
    expect(rows[1]).toHaveTextContent('Ink club, Ink of the month$10.00Subscription, $10.00 each billing cycle');
    expect(rows[2]).toHaveTextContent('Dot-grid notebook, Travel sizeNot charged');
    expect(rows[2]).toHaveTextContent('No longer sold: it will not be charged.');
    expect(within(rows[2] as HTMLElement).getByRole('button', { name: 'Remove Dot-grid notebook, Travel size' })).toBeEnabled();

    // Assess: the invoice, today and after
    const summary = page.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByRole('list', { name: 'Order lines' })).toHaveTextContent(
      'Dot-grid notebook, A5 × 2$30.00Ink club, Ink of the month$10.00',
    );
    expect(summary).toHaveTextContent('Due today$40.00');
    expect(await within(summary).findByRole('list', { name: 'After today' })).toHaveTextContent(
      'Then $10.00 every month for Ink club, Ink of the month, until you cancel.',
    );

    // Assess: the card form of the shop's own account
    const form = await page.findByRole('form', { name: 'Card details' });
    expect(within(form).getByRole('button', { name: 'Pay $40.00' })).toBeEnabled();
    expect(api.calls(routes.getShopPaymentClient).map((request) => request.params)).toEqual([{ merchantAccountId: ids.shop }]);
  });

  it('removes an item, shows the cart without it, and puts focus back on the list', async () => {
    // Prepare
    const after = makeCart({
      items: [boxCartItem()],
      invoice: makeInvoice({ lines: makeInvoice().lines.slice(1), total: usd(1000) }),
    });
    const { page, user, api } = renderCart({ carts: [makeCart(), after], remove: { body: makeCartItem() } });
    const items = await page.findByRole('region', { name: 'Items' });

    // Act
    await user.click(within(items).getByRole('button', { name: 'Remove Dot-grid notebook, A5' }));

    // Assess
    await waitFor(() => expect(within(items).getAllByRole('listitem')).toHaveLength(1));
    expect(within(items).getByRole('heading', { name: 'Items' })).toHaveFocus();
    expect(await page.findByRole('button', { name: 'Pay $10.00' })).toBeEnabled();
    expect(api.calls(routes.removeCartItem).map((request) => request.params)).toEqual([{ cartItemId: ids.cartA5 }]);
  });

  it('pays the invoice with a nonce from the shop’s card form, then confirms the order with the way to it', async () => {
    // Prepare
    const { page, user, api, tokenized } = renderCart({ carts: [makeCart()], fulfill: { body: true } });
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Pay $40.00' }));

    // Assess: the confirmation, focused, with what was bought
    const confirmed = await page.findByRole('heading', { level: 1, name: 'Thank you: your order is paid' });
    expect(confirmed).toHaveFocus();
    expect(page.getByText('You paid $40.00 to The Pen Shop.')).toBeInTheDocument();
    expect(page.getByRole('list', { name: 'What you bought' })).toHaveTextContent('Dot-grid notebook, A5 × 2$30.00');
    expect(page.getByRole('link', { name: 'See your orders' })).toHaveAttribute('href', '/store/orders');
    expect(page.getByRole('link', { name: 'Back to The Pen Shop' })).toHaveAttribute('href', '/shop/pen-shop');
    expect(api.calls(routes.fulfillStoreInvoice).map((request) => [request.params, request.body])).toEqual([
      [{ invoiceId: 'inv_cart_000000001' }, { paymentMethodNonce: 'tokencc_1_1111' }],
    ]);
    expect(tokenized.map((request) => request.authorizationFingerprint)).toEqual(['pen-shop-fingerprint']);
  });

  it('shows a declined card’s reason beside the form and keeps it, ready for another card', async () => {
    // Prepare
    const { page, user } = renderCart({
      carts: [makeCart()],
      fulfill: { status: 402, body: { message: DECLINED, code: 'PAYMENT_DECLINED' } },
    });
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act
    await user.click(within(form).getByRole('button', { name: /^4000 1111 1111 1115/ }));
    await user.click(within(form).getByRole('button', { name: 'Pay $40.00' }));

    // Assess
    expect(await within(form).findByRole('alert')).toHaveTextContent(DECLINED);
    expect(within(form).getByRole('textbox', { name: 'Card number' })).toHaveValue('4000 1111 1111 1115');
    expect(within(form).getByRole('button', { name: 'Pay $40.00' })).toBeEnabled();
    expect(page.queryByRole('heading', { name: 'Thank you: your order is paid' })).not.toBeInTheDocument();
  });

  it('on a price change at payment, fetches the cart again and says what changed and that nothing was charged', async () => {
    // Prepare: the notebook went up between opening the cart and paying
    const raised = makeCart({
      items: [makeCartItem({ unitPrice: usd(1800), status: 'price-changed' }), boxCartItem()],
      invoice: makeInvoice({
        id: 'inv_cart_000000002',
        lines: [{ ...makeInvoice().lines[0]!, unitPrice: usd(1800) }, makeInvoice().lines[1]!],
        total: usd(4600),
      }),
    });
    const { page, user, api } = renderCart({
      carts: [makeCart(), raised],
      fulfill: {
        status: 409,
        body: { message: 'A price changed since this invoice was made: fetch the cart again.', code: 'CONFLICT' },
      },
    });
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Or pay with a test nonce' }), 'fake-valid-visa-nonce');
    await user.click(within(form).getByRole('button', { name: 'Pay $40.00' }));

    // Assess: what changed, in an alert; the new price flagged and the new total on the button
    const alert = await page.findByText('Your cart changed since it was priced, so nothing was charged.');
    const changed = alert.closest('[role="alert"]');
    expect(changed).toHaveTextContent('Dot-grid notebook, A5: was $15.00, now $18.00.');
    expect(changed).toHaveTextContent('The total is now $46.00, not $40.00.');
    expect(changed).toHaveTextContent('Check the new total, then pay again.');
    expect(page.getByRole('region', { name: 'Items' })).toHaveTextContent('Price changed: was $15.00, now $18.00.');
    expect(within(form).getByRole('button', { name: 'Pay $46.00' })).toBeEnabled();
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls(routes.getCartInvoice)).toHaveLength(2);
  });

  it('says an empty cart is empty, with the way back to the shop', async () => {
    // Prepare
    const { page } = renderCart({ carts: [makeCart({ items: [], invoice: null })] });

    // Assess
    expect(await page.findByRole('heading', { name: 'Your cart is empty' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Browse The Pen Shop' })).toHaveAttribute('href', '/shop/pen-shop');
    expect(page.queryByRole('form', { name: 'Card details' })).not.toBeInTheDocument();
  });

  it('asks a visitor to log in, and asks the API for no cart', async () => {
    // Prepare
    const { page, api } = renderCart({ carts: [makeCart()], user: null });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Log in to see your cart' })).toBeInTheDocument();
    expect(api.calls(routes.getCartInvoice)).toHaveLength(0);
  });

  it('steps a quantity up, sends the new quantity (not a price), and shows the cart as the server priced it', async () => {
    // Prepare
    const after = makeCart({ items: [makeCartItem({ quantity: 3 }), boxCartItem()] });
    const { page, user, api } = renderCart({
      carts: [makeCart(), after],
      update: { body: makeCartItem({ quantity: 3 }) },
    });
    const items = await page.findByRole('region', { name: 'Items' });
    const stepper = within(items).getByRole('group', { name: 'Quantity of Dot-grid notebook, A5' });
    const callsBefore = api.calls(routes.listMyCarts).length;

    // Act
    await user.click(within(stepper).getByRole('button', { name: 'One more Dot-grid notebook, A5' }));

    // Assess
    expect(api.calls(routes.updateCartItemQuantity).map((request) => [request.params, request.body])).toEqual([
      [{ cartItemId: ids.cartA5 }, { quantity: 3 }],
    ]);
    await waitFor(() => expect(within(items).getAllByRole('listitem')[0]).toHaveTextContent('3 × $15.00'));
    expect(within(items).getByRole('spinbutton', { name: 'Quantity' })).toHaveValue(3);
    // The top bar's count is asked for again.
    await waitFor(() => expect(api.calls(routes.listMyCarts).length).toBeGreaterThan(callsBefore));
    // A subscription is one per cart: no stepper.
    expect(within(items).queryByRole('group', { name: /Quantity of Ink club/ })).not.toBeInTheDocument();
  });

  it('sends a typed quantity on Enter and shows the server refusing it, in its words', async () => {
    // Prepare
    const refusal = 'At most 99';
    const { page, user, api } = renderCart({
      carts: [makeCart()],
      update: { status: 400, body: { message: refusal, code: 'BAD_REQUEST' } },
    });
    const items = await page.findByRole('region', { name: 'Items' });
    const input = within(items).getByRole('spinbutton', { name: 'Quantity' });

    // Act
    await user.clear(input);
    await user.type(input, '150{Enter}');

    // Assess
    expect(await within(items).findByRole('alert')).toHaveTextContent(refusal);
    expect(api.calls(routes.updateCartItemQuantity).map((request) => request.body)).toEqual([{ quantity: 150 }]);
    expect(within(items).getAllByRole('listitem')[0]).toHaveTextContent('2 × $15.00');
  });

  it('cannot step below 1: removing is its own button', async () => {
    // Prepare
    const { page } = renderCart({ carts: [makeCart({ items: [makeCartItem({ quantity: 1 })] })] });
    const items = await page.findByRole('region', { name: 'Items' });

    // Assess
    expect(within(items).getByRole('button', { name: 'One fewer Dot-grid notebook, A5' })).toBeDisabled();
    expect(within(items).getByRole('button', { name: 'Remove Dot-grid notebook, A5' })).toBeEnabled();
  });
});
