import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { boxCartItem, ids, makeProduct, makeShop, monthlyBoxGrade } from '../test-utils/fixtures';
import { GradePage } from './grade-page';

function renderGrade(answer: StubAnswer<typeof routes.getProductGrade>) {
  const api = stubRoutes(
    stubRoute(routes.getProductGrade, answer),
    stubRoute(routes.addCartItem, { body: boxCartItem() }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const rendered = renderShell({
    path: `/product/${ids.club}/grade/${ids.monthlyBox}`,
    user: jane,
    pages: [{ path: 'product/:productStockId/grade/:productStockGradeId', Component: GradePage }],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('GradePage', () => {
  it('shows one grade on its own page, with the way back to its product, and adds it to the cart', async () => {
    // Prepare
    const { page, user, api } = renderGrade({
      body: { shop: makeShop(), product: makeProduct({ id: ids.club, title: 'Ink club' }), grade: monthlyBoxGrade() },
    });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Ink of the month' })).toBeInTheDocument();
    expect(page.getByText('$10.00').closest('p')).toHaveTextContent('$10.00/month');
    expect(page.getByRole('link', { name: 'Ink club' })).toHaveAttribute('href', `/product/${ids.club}`);
    expect(page.getByRole('link', { name: 'See every option of Ink club' })).toHaveAttribute('href', `/product/${ids.club}`);
    expect(document.title).toBe('Ink club: Ink of the month · The Pen Shop');

    // Act
    await user.click(page.getByRole('button', { name: 'Add to cart' }));

    // Assess
    expect(await page.findByRole('status')).toHaveTextContent('In your cart. View cart');
    expect(api.calls(routes.addCartItem).map((request) => request.body)).toEqual([
      { productStockGradeId: ids.monthlyBox, quantity: 1 },
    ]);
  });

  it('answers a private grade as not available', async () => {
    // Prepare
    const { page } = renderGrade({ status: 404, body: { message: 'No such grade', code: 'NOT_FOUND' } });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'This product is not available' })).toBeInTheDocument();
  });
});
