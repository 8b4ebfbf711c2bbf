import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { ids, makeOpenCart, makeProduct, makeShop } from '../test-utils/fixtures';
import { ShopPage } from './shop-page';

function renderShop({
  path = '/shop/pen-shop',
  shop = { body: makeShop() },
  products,
  user = null,
  carts = { body: { items: [] } },
}: {
  path?: string;
  shop?: StubAnswer<typeof routes.getShop>;
  products: StubAnswer<typeof routes.listShopProducts>;
  user?: CurrentUser | null;
  carts?: StubAnswer<typeof routes.listMyCarts>;
}) {
  const api = stubRoutes(
    stubRoute(routes.getShop, shop),
    stubRoute(routes.listShopProducts, products),
    stubRoute(routes.listMyCarts, carts),
  );
  const rendered = renderShell({ path, user, pages: [{ path: 'shop/:shopId', Component: ShopPage }] });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

const journal = makeProduct({
  id: ids.journal,
  title: 'Leather journal',
  display: { tagline: 'Refillable, for years', accentColor: null, featured: true, position: 0 },
  priceFrom: { amountMinor: 4500, currency: 'USD' },
});
const club = makeProduct({
  id: ids.club,
  title: 'Ink club',
  images: [],
  display: { tagline: null, accentColor: null, featured: false, position: 2 },
  // On sale, but with no grade yet: nothing to buy.
  gradeCount: 0,
  hasGradeOnSale: false,
  priceFrom: null,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ShopPage', () => {
  it('shows the shop and its products, featured first, each opening its page, and loads more on request', async () => {
    // Prepare: two pages of products
    const { page, user, api } = renderShop({
      products: ({ url }) =>
        url.searchParams.get('cursor') === 'page-2'
          ? { body: { items: [club], cursor: null } }
          : { body: { items: [journal, makeProduct()], cursor: 'page-2' } },
    });

    // Assess: the shop's header
    expect(await page.findByRole('heading', { level: 1, name: 'The Pen Shop' })).toBeInTheDocument();
    expect(page.getByText('Fountain pens, paper and ink, shipped from Lisbon.')).toBeInTheDocument();
    expect(document.title).toBe('The Pen Shop · TopPubs');

    // Assess: the cards in the API's order, the featured one said in words
    const products = await page.findByRole('region', { name: 'Products' });
    const cards = within(products).getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Leather journal', 'Dot-grid notebook']);
    expect(cards[0]).toHaveTextContent('Featured');
    expect(cards[0]).toHaveTextContent('Refillable, for years');
    expect(cards[0]).toHaveTextContent('from $45.00');
    expect(cards[1]).not.toHaveTextContent('Featured');
    expect(cards[1]).toHaveTextContent('from $15.00');
    expect(within(cards[1]!).getByRole('link', { name: 'Dot-grid notebook' })).toHaveAttribute(
      'href',
      `/product/${ids.notebook}`,
    );

    // Act
    await user.click(within(products).getByRole('button', { name: 'Load more' }));

    // Assess: the next page below, and no more to load
    expect(await within(products).findByRole('link', { name: 'Ink club' })).toHaveAttribute('href', `/product/${ids.club}`);
    expect(within(products).getAllByRole('article')).toHaveLength(3);
    expect(within(products).getAllByRole('article')[2]).toHaveTextContent('Not on sale yet');
    expect(within(products).getAllByRole('article')[2]).not.toHaveTextContent('from $');
    expect(within(products).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.calls(routes.listShopProducts).map((request) => request.params)).toEqual([
      { merchantAccountId: 'pen-shop' },
      { merchantAccountId: 'pen-shop' },
    ]);
  });

  it('says a shop that takes no payments yet cannot sell, and that it has nothing on sale', async () => {
    // Prepare
    const { page } = renderShop({
      shop: { body: makeShop({ acceptsPayments: false, logo: null, description: '' }) },
      products: { body: { items: [], cursor: null } },
    });

    // Assess
    expect((await page.findByText(/does not take payments yet/)).closest('p')).toHaveTextContent(
      'The Pen Shop does not take payments yet. You can look around; nothing can be bought until it does.',
    );
    expect(await page.findByRole('heading', { name: 'Nothing on sale yet' })).toBeInTheDocument();
  });

  it('says plainly when no shop has this address', async () => {
    // Prepare
    const { page } = renderShop({
      path: '/shop/no-such-shop',
      shop: { status: 404, body: { message: 'No such shop', code: 'NOT_FOUND' } },
      products: { status: 404, body: { message: 'No such shop', code: 'NOT_FOUND' } },
    });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'No such shop' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it("links to the person's cart at this shop, with its count, and says nothing of carts at other shops", async () => {
    // Prepare
    const otherShop = makeOpenCart({
      merchantAccountId: ids.otherShop,
      shop: { id: ids.otherShop, handle: 'ink-shop', shopName: 'Ink Shop' },
      itemCount: 7,
    });
    const { page } = renderShop({
      user: jane,
      products: { body: { items: [journal], cursor: null } },
      carts: { body: { items: [otherShop, makeOpenCart({ itemCount: 3 })] } },
    });

    // Act
    const link = await page.findByRole('link', { name: 'Your cart (3)' });

    // Assess
    expect(link).toHaveAttribute('href', `/cart/${ids.shop}`);
    expect(page.queryByRole('link', { name: 'Your cart (7)' })).not.toBeInTheDocument();
  });

  it('shows no cart link to a visitor, and asks for no carts', async () => {
    // Prepare
    const { page, api } = renderShop({ products: { body: { items: [journal], cursor: null } } });

    // Assess
    expect(await page.findByRole('link', { name: /Leather journal/ })).toBeInTheDocument();
    expect(page.queryByRole('link', { name: /Your cart/ })).not.toBeInTheDocument();
    expect(api.calls(routes.listMyCarts)).toEqual([]);
  });
});
