import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { CartInvoice } from '../api/store-keys';
import {
  ids,
  makeCart,
  makeInvoice,
  makeProduct,
  makeShop,
  monthlyBoxGrade,
  shopPaymentClient,
  stubLocalGateway,
} from '../test-utils/fixtures';
import { CartPage } from './cart-page';

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });
const USED_UP =
  'This code has just been used up: the price without it is $40.00. Nothing was charged: remove the code to pay that price.';

/** The cart with SPRING applied: 20% off the notebooks ($30.00), $6.00 saved. */
const springCart = (): CartInvoice => {
  const plain = makeInvoice();
  return makeCart({
    invoice: makeInvoice({
      id: 'inv_cart_spring0001',
      lines: [{ ...plain.lines[0]!, discount: usd(600) }, plain.lines[1]!],
      total: usd(3_400),
      discount: { code: 'SPRING', saving: usd(600), appliesTo: 'first' },
    }),
  });
};

/** The cart page, its cart answered by the code asked for: SPRING prices it, any other code is refused with `refusal`. */
function renderCart({
  path = `/cart/${ids.shop}`,
  refusal = {
    status: 400,
    body: { message: 'There is no discount code NOPE at this shop: check how it is spelt.', code: 'DISCOUNT_CODE_REFUSED' },
  },
  fulfill = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
}: {
  path?: string;
  refusal?: { status: number; body: { message: string; code: string } };
  fulfill?: StubAnswer<typeof routes.fulfillStoreInvoice>;
} = {}) {
  const api = stubRoutes(
    stubRoute(routes.getCartInvoice, (request) => {
      const code = request.url.searchParams.get('discountCode');
      if (!code) return { body: makeCart() };
      return code.toUpperCase() === 'SPRING' ? { body: springCart() } : refusal;
    }),
    stubRoute(routes.getShopPaymentClient, { body: shopPaymentClient }),
    stubRoute(routes.fulfillStoreInvoice, fulfill),
    stubRoute(routes.listMyCarts, { body: { items: [] } }),
    stubRoute(routes.getProductGrade, {
      body: { shop: makeShop(), product: makeProduct({ id: ids.club, title: 'Ink club' }), grade: monthlyBoxGrade() },
    }),
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  stubLocalGateway(api);
  renderShell({ path, user: jane, pages: [{ path: 'cart/:merchantAccountId', Component: CartPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

const codeRequests = (api: ReturnType<typeof stubRoutes>) =>
  api.calls(routes.getCartInvoice).map((request) => request.url.searchParams.get('discountCode'));

describe('the cart’s discount code', () => {
  it('applies a code the server accepts: the saving in the summary, and the lower total on the Pay button', async () => {
    // Prepare
    const { page, user, api } = renderCart();
    const field = await page.findByRole('textbox', { name: 'Discount code' });

    // Act
    await user.type(field, 'spring');
    await user.click(page.getByRole('button', { name: 'Apply' }));

    // Assess
    expect(await page.findByRole('status')).toHaveTextContent('Code SPRING applied: you save $6.00.');
    expect(page.getByRole('list', { name: 'Order lines' })).toHaveTextContent('Discount (SPRING)−$6.00');
    expect(await page.findByRole('button', { name: 'Pay $34.00' })).toBeInTheDocument();
    expect(codeRequests(api)).toContain('spring');
  });

  it('shows the server’s reason beside the field for a code it refuses, and keeps the price as it was', async () => {
    // Prepare
    const { page, user } = renderCart();
    const field = await page.findByRole('textbox', { name: 'Discount code' });

    // Act
    await user.type(field, 'NOPE');
    await user.click(page.getByRole('button', { name: 'Apply' }));

    // Assess
    expect(await page.findByText('There is no discount code NOPE at this shop: check how it is spelt.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(page.getByRole('button', { name: 'Pay $40.00' })).toBeInTheDocument();
    expect(page.queryByRole('status')).not.toBeInTheDocument();
  });

  it('takes the code off, says why and shows the full price when the code was used up at payment', async () => {
    // Prepare: the page opened with SPRING in its address
    const { page, user, api } = renderCart({
      path: `/cart/${ids.shop}?code=SPRING`,
      fulfill: { status: 409, body: { message: USED_UP, code: 'DISCOUNT_CODE_USED_UP' } },
    });
    const form = await page.findByRole('form', { name: 'Card details' });
    await page.findByRole('button', { name: 'Pay $34.00' });

    // Act
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Or pay with a test nonce' }), 'fake-valid-visa-nonce');
    await user.click(within(form).getByRole('button', { name: 'Pay $34.00' }));

    // Assess
    const alert = (await page.findByText('Your discount code was taken off.')).closest('[role="alert"]');
    expect(alert).toHaveTextContent(USED_UP);
    expect(await page.findByRole('button', { name: 'Pay $40.00' })).toBeInTheDocument();
    expect(page.getByRole('textbox', { name: 'Discount code' })).toHaveValue('');
    expect(codeRequests(api)).toEqual(['SPRING', null]);
  });
});
