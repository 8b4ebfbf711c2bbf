import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, Page, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { ProductPage as ProductPageView } from '../api/store-keys';
import { boxCartItem, ids, makeCartItem, makeGrade, makeProduct, makeShop, monthlyBoxGrade } from '../test-utils/fixtures';
import { ProductPage } from './product-page';

const notebookPage = (overrides: Partial<ProductPageView> = {}): ProductPageView => ({
  shop: makeShop(),
  product: makeProduct(),
  grades: [
    makeGrade(),
    makeGrade({
      id: ids.a4,
      name: 'A4',
      price: { amountMinor: 2200, currency: 'USD' },
      display: { badge: null, highlighted: false, position: 1, features: [] },
    }),
    makeGrade({ id: ids.retired, name: 'Travel size', stocked: false, purchasable: false }),
  ],
  ...overrides,
});

const clubPage = (): ProductPageView => ({
  shop: makeShop(),
  product: makeProduct({ id: ids.club, title: 'Ink club', visibility: 'unlisted' }),
  grades: [monthlyBoxGrade()],
});

function renderProduct({
  data = notebookPage(),
  user = jane,
  add = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
  buyNow = { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
  productAnswer,
}: {
  data?: ProductPageView;
  user?: CurrentUser | null;
  add?: StubAnswer<typeof routes.addCartItem>;
  buyNow?: StubAnswer<typeof routes.replaceCartWithItem>;
  productAnswer?: StubAnswer<typeof routes.getProduct>;
} = {}) {
  const api = stubRoutes(
    stubRoute(routes.getProduct, productAnswer ?? { body: data }),
    stubRoute(routes.addCartItem, add),
    stubRoute(routes.replaceCartWithItem, buyNow),
    stubRoute(routes.getMe, { body: jane }),
    // The login modal's bot check, for a visitor.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const rendered = renderShell({
    path: `/product/${data.product.id}`,
    user,
    pages: [
      { path: 'product/:productStockId', Component: ProductPage },
      { path: 'cart/:merchantAccountId', element: <Page name="Cart page" /> },
    ],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProductPage', () => {
  it('shows the product and its grades: price, what each includes, and which are no longer sold', async () => {
    // Prepare
    const { page } = renderProduct();

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Dot-grid notebook' })).toBeInTheDocument();
    expect(page.getByText('Sold by').closest('p')).toHaveTextContent('Sold by The Pen Shop');
    expect(page.getByRole('link', { name: 'The Pen Shop' })).toHaveAttribute('href', '/shop/pen-shop');
    expect(page.getByRole('img', { name: 'Dot-grid notebook, image 1 of 2' })).toBeInTheDocument();
    const a5 = page.getByRole('region', { name: 'A5' });
    expect(a5).toHaveTextContent('$15.00');
    expect(within(a5).getByRole('list', { name: 'What A5 includes' })).toHaveTextContent('96 pagesDot grid');
    expect(within(a5).getByRole('link', { name: 'A5' })).toHaveAttribute('href', `/product/${ids.notebook}/grade/${ids.a5}`);
    expect(within(a5).getByRole('spinbutton', { name: 'Quantity' })).toHaveValue(1);
    expect(within(a5).getByRole('button', { name: 'Add to cart' })).toHaveAccessibleDescription('A5');
    const retired = page.getByRole('region', { name: 'Travel size' });
    expect(retired).toHaveTextContent('No longer sold');
    expect(within(retired).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows a subscription grade per cycle with its badge, and an unlisted product opens by its link', async () => {
    // Prepare
    const { page } = renderProduct({ data: clubPage() });

    // Assess
    const grade = await page.findByRole('region', { name: 'Ink of the month' });
    expect(grade).toHaveTextContent('$10.00/month');
    expect(grade).toHaveTextContent('Most popular');
    expect(grade).toHaveTextContent('Billed every month, cancel any time.');
    expect(grade).toHaveTextContent('Add-ons you can add later: Extra bottle ($2.00/month), Gift wrap ($5.00/month).');
    // One subscription per cart: no quantity to choose.
    expect(within(grade).queryByRole('spinbutton', { name: 'Quantity' })).not.toBeInTheDocument();
    expect(within(grade).getByRole('button', { name: 'Buy now' })).toBeEnabled();
  });

  it('adds the chosen quantity to the cart and links to it', async () => {
    // Prepare
    const { page, user, api } = renderProduct({ add: { body: makeCartItem({ quantity: 5 }) } });
    const a5 = await page.findByRole('region', { name: 'A5' });

    // Act
    await user.clear(within(a5).getByRole('spinbutton', { name: 'Quantity' }));
    await user.type(within(a5).getByRole('spinbutton', { name: 'Quantity' }), '3');
    await user.click(within(a5).getByRole('button', { name: 'Add to cart' }));

    // Assess: the grade and quantity sent; the cart now holds 5 (2 were in it already)
    expect(await within(a5).findByRole('status')).toHaveTextContent('In your cart: 5. View cart');
    expect(within(a5).getByRole('link', { name: 'View cart' })).toHaveAttribute('href', `/cart/${ids.shop}`);
    expect(api.calls(routes.addCartItem).map((request) => request.body)).toEqual([{ productStockGradeId: ids.a5, quantity: 3 }]);
    expect(api.calls(routes.replaceCartWithItem)).toHaveLength(0);
  });

  it('refuses a quantity the cart cannot take, before asking the API', async () => {
    // Prepare
    const { page, user, api } = renderProduct();
    const a5 = await page.findByRole('region', { name: 'A5' });
    const quantity = within(a5).getByRole('spinbutton', { name: 'Quantity' });

    // Act
    await user.clear(quantity);
    await user.type(quantity, '120');
    await user.click(within(a5).getByRole('button', { name: 'Add to cart' }));

    // Assess
    expect(await within(a5).findByRole('alert')).toHaveTextContent('At most 99');
    expect(quantity).toHaveAttribute('aria-invalid', 'true');
    expect(quantity).toHaveAccessibleDescription('At most 99');
    expect(api.calls(routes.addCartItem)).toHaveLength(0);
  });

  it('says why the API would not add a grade', async () => {
    // Prepare
    const { page, user } = renderProduct({
      add: { status: 400, body: { message: 'This grade is no longer sold.', code: 'BAD_REQUEST' } },
    });
    const a4 = await page.findByRole('region', { name: 'A4' });

    // Act
    await user.click(within(a4).getByRole('button', { name: 'Add to cart' }));

    // Assess
    expect(await within(a4).findByRole('alert')).toHaveTextContent('This grade is no longer sold.');
  });

  it('buys now: makes the grade the cart’s only item, then opens the cart', async () => {
    // Prepare
    const { page, user, api, router } = renderProduct({ data: clubPage(), buyNow: { body: boxCartItem() } });
    const grade = await page.findByRole('region', { name: 'Ink of the month' });

    // Act
    await user.click(within(grade).getByRole('button', { name: 'Buy now' }));

    // Assess
    await waitFor(() => expect(router.state.location.pathname).toBe(`/cart/${ids.shop}`));
    expect(await screen.findByRole('heading', { name: 'Cart page' })).toBeInTheDocument();
    expect(api.calls(routes.replaceCartWithItem).map((request) => request.body)).toEqual([
      { productStockGradeId: ids.monthlyBox, quantity: 1 },
    ]);
    expect(api.calls(routes.addCartItem)).toHaveLength(0);
  });

  it('asks a visitor to log in before anything goes in a cart', async () => {
    // Prepare
    const { page, user, api } = renderProduct({ user: null });
    const a5 = await page.findByRole('region', { name: 'A5' });

    // Act
    await user.click(within(a5).getByRole('button', { name: 'Add to cart' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: /^Log in to / })).toBeInTheDocument();
    expect(api.calls(routes.addCartItem)).toHaveLength(0);
  });

  it('offers nothing for sale on a product with no grade yet, and says it is not on sale yet', async () => {
    // Prepare: the merchant put it on sale before adding a grade
    const { page } = renderProduct({
      data: notebookPage({ product: makeProduct({ gradeCount: 0, hasGradeOnSale: false, priceFrom: null }), grades: [] }),
    });

    // Assess
    const options = await page.findByRole('region', { name: 'Options' });
    expect(options).toHaveTextContent('Not on sale yet: there is nothing to choose from.');
    expect(page.queryByRole('button', { name: 'Add to cart' })).not.toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
  });

  it('answers a private or unknown product as not available', async () => {
    // Prepare
    const { page } = renderProduct({
      productAnswer: { status: 404, body: { message: 'No such product', code: 'NOT_FOUND' } },
    });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'This product is not available' })).toBeInTheDocument();
  });
});
