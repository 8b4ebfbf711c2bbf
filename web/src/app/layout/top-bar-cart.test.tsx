import { setScreenWidth } from '../../test/dom-polyfills';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { ids, makeCart, makeOpenCart } from '../../features/store/test-utils/fixtures';
import { CartPage } from '../../features/store/routes/cart-page';
import { jane, renderShell } from '../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../test/stub-routes';

function renderBar({
  user = jane,
  carts = { body: { items: [] } },
}: {
  user?: typeof jane | null;
  carts?: StubAnswer<typeof routes.listMyCarts>;
}) {
  const api = stubRoutes(
    stubRoute(routes.listMyCarts, carts),
    stubRoute(routes.getCartInvoice, { body: makeCart() }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const rendered = renderShell({ user, pages: [{ path: 'cart/:merchantAccountId', Component: CartPage }] });
  return { ...rendered, api, bar: within(screen.getByRole('banner')) };
}

beforeEach(() => setScreenWidth(1280));
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TopBar cart', () => {
  it('shows the count of everything in the carts and leads to the cart added to last, which lists the others', async () => {
    // Prepare
    const user = userEvent.setup();
    const { bar } = renderBar({
      carts: {
        body: {
          items: [
            makeOpenCart({ itemCount: 2 }),
            makeOpenCart({
              merchantAccountId: ids.otherShop,
              shop: { id: ids.otherShop, handle: 'ink-shop', shopName: 'Ink Shop' },
              itemCount: 1,
              lineCount: 1,
            }),
          ],
        },
      },
    });

    // Act
    const link = await bar.findByRole('link', { name: 'Cart, 3 items' });
    await user.click(link);

    // Assess
    expect(link).toHaveAttribute('href', `/cart/${ids.shop}`);
    const main = within(screen.getByRole('main'));
    const others = await main.findByRole('navigation', { name: 'Your other carts' });
    expect(within(others).getByRole('link', { name: 'Ink Shop (1 item)' })).toHaveAttribute('href', `/cart/${ids.otherShop}`);
  });

  it('counts only what can still be bought, and leads to the cart added to last that has some', async () => {
    // Prepare: the newest cart holds only things no longer sold; an older one has a pen to buy.
    const user = userEvent.setup();
    const { bar } = renderBar({
      carts: {
        body: {
          items: [
            makeOpenCart({
              merchantAccountId: ids.otherShop,
              shop: { id: ids.otherShop, handle: 'ink-shop', shopName: 'Ink Shop' },
              itemCount: 0,
              lineCount: 2,
              unavailableLineCount: 2,
            }),
            makeOpenCart({ itemCount: 1, lineCount: 2, unavailableLineCount: 1 }),
          ],
        },
      },
    });

    // Act
    const link = await bar.findByRole('link', { name: 'Cart, 1 item' });
    await user.click(link);

    // Assess
    expect(link).toHaveAttribute('href', `/cart/${ids.shop}`);
    expect(link).toHaveTextContent('1');
    const main = within(screen.getByRole('main'));
    const others = await main.findByRole('navigation', { name: 'Your other carts' });
    expect(within(others).getByRole('link', { name: 'Ink Shop (2 no longer sold)' })).toHaveAttribute(
      'href',
      `/cart/${ids.otherShop}`,
    );
  });

  it('shows no count while everything left in the carts is no longer sold', async () => {
    // Prepare
    const { bar, api } = renderBar({
      carts: { body: { items: [makeOpenCart({ itemCount: 0, lineCount: 3, unavailableLineCount: 3 })] } },
    });

    // Assess
    await vi.waitFor(() => expect(api.calls(routes.listMyCarts)).toHaveLength(1));
    expect(await bar.findByRole('link', { name: /Notifications/ })).toBeInTheDocument();
    expect(bar.queryByRole('link', { name: /^Cart/ })).not.toBeInTheDocument();
  });

  it('shows nothing while every cart is empty', async () => {
    // Prepare
    const { bar, api } = renderBar({ carts: { body: { items: [] } } });

    // Assess
    await vi.waitFor(() => expect(api.calls(routes.listMyCarts)).toHaveLength(1));
    expect(await bar.findByRole('link', { name: /Notifications/ })).toBeInTheDocument();
    expect(bar.queryByRole('link', { name: /^Cart/ })).not.toBeInTheDocument();
  });

  it('shows nothing to a visitor and asks nothing', async () => {
    // Prepare
    const { bar, api } = renderBar({ user: null, carts: { body: { items: [makeOpenCart()] } } });

    // Assess
    expect(await bar.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(bar.queryByRole('link', { name: /^Cart/ })).not.toBeInTheDocument();
    expect(api.calls(routes.listMyCarts)).toEqual([]);
  });
});
