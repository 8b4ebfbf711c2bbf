import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { ProductDashboard, ProductStockView } from '../api/merchant-keys';
import {
  connectFirst,
  GRADE_ID,
  makeFigures,
  makeGrade,
  makeProduct,
  makeSubscriptionGrade,
  plans,
  PRODUCT_ID,
  productDashboard,
  validationFailed,
} from '../test-utils/fixtures';
import { MerchantProductPage } from './merchant-product-page';

/** The product's routes, its dashboard following `state` so a change shows after the refetch. */
function renderProduct(stubs: RouteStub[] = [], state: { dashboard: ProductDashboard } = { dashboard: productDashboard() }) {
  const api = stubRoutes(
    ...stubs,
    stubRoute(routes.showProductDashboard, () => ({ body: state.dashboard })),
    stubRoute(routes.listMyStockedGrades, () => ({
      body: { items: state.dashboard.grades.filter((g) => g.stocked), cursor: null },
    })),
    stubRoute(routes.listMyUnstockedGrades, () => ({
      body: { items: state.dashboard.grades.filter((g) => !g.stocked), cursor: null },
    })),
    stubRoute(routes.listMyGatewayPlans, { body: plans }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const rendered = renderShell({
    path: `/merchant/products/${PRODUCT_ID}`,
    user: jane,
    pages: [{ path: 'merchant/products/:productStockId', Component: MerchantProductPage }],
  });
  return { ...rendered, api, state, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

/** The product as the server keeps it after a change: the dashboard answers it from then on. */
function changeProduct(state: { dashboard: ProductDashboard }, changes: Partial<ProductStockView>) {
  state.dashboard = { ...state.dashboard, product: { ...state.dashboard.product, ...changes } };
  return state.dashboard.product;
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('MerchantProductPage', () => {
  it('shows the product’s state in words, its figures, sales and grades, and its link in the shop', async () => {
    // Prepare
    const { page } = renderProduct();

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Zine club' })).toBeInTheDocument();
    expect(page.getByText('Public', { selector: 'span' })).toBeInTheDocument();
    expect(page.getByText('On sale', { selector: 'span' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'View in shop' })).toHaveAttribute('href', `/product/${PRODUCT_ID}`);
    expect(within(page.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Your shop' })).toHaveAttribute(
      'href',
      '/merchant',
    );
    expect(page.getByRole('region', { name: 'Last 30 days' })).toHaveTextContent('Revenue$84.00');
    expect(page.getByRole('table', { name: 'Recent sales' })).toHaveTextContent('Sam Buyer');
    const grades = page.getByRole('region', { name: 'Grades' });
    const panel = within(grades).getByRole('tabpanel', { name: 'Stocked (2)' });
    expect(await within(panel).findByRole('link', { name: 'Single issue' })).toHaveAttribute(
      'href',
      `/merchant/products/${PRODUCT_ID}/grades/${GRADE_ID}`,
    );
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Single issuePublic · On sale$9.00 once', 'Monthly clubPublic · On sale · plan monthly$15.00 every month']);
  });

  it('leads a new product with its first grade, says it is not on sale yet, and draws no empty charts', async () => {
    // Prepare: a product put on sale with no grade, nothing sold
    const empty = makeFigures({
      days: makeFigures().days.map((day) => ({ ...day, orders: 0, units: 0, revenueMinor: 0 })),
      totals: {
        orders: 0,
        units: 0,
        revenue: { amountMinor: 0, currency: 'USD' },
        discounts: { amountMinor: 0, currency: 'USD' },
        refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
      },
      activeSubscriptions: 0,
      pastDueSubscriptions: 0,
    });
    const dashboard = productDashboard({
      product: makeProduct({ gradeCount: 0, hasGradeOnSale: false, priceFrom: null }),
      grades: [],
      figures: empty,
      recentSales: [],
    });
    const { page } = renderProduct([], { dashboard });

    // Assess: the state says why nothing can be bought
    expect(await page.findByRole('heading', { level: 1, name: 'Zine club' })).toBeInTheDocument();
    expect(page.getByText('Not on sale yet: add a grade', { selector: 'span' })).toBeInTheDocument();
    expect(page.queryByText('On sale', { selector: 'span' })).not.toBeInTheDocument();

    // Assess: the first section is the grades, with the next step; no empty charts
    const sections = page.getAllByRole('region');
    expect(sections[0]).toHaveAccessibleName('Grades');
    expect(within(sections[0]!).getByRole('button', { name: 'Add the first grade' })).toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'New grade' })).not.toBeInTheDocument();
    expect(page.queryByRole('region', { name: 'Last 30 days' })).not.toBeInTheDocument();
    expect(page.queryByRole('region', { name: 'Recent sales' })).not.toBeInTheDocument();
  });

  it('puts the empty charts below the rest while a product with grades has sold nothing', async () => {
    // Prepare
    const empty = makeFigures({
      days: makeFigures().days.map((day) => ({ ...day, orders: 0, units: 0, revenueMinor: 0 })),
      totals: {
        orders: 0,
        units: 0,
        revenue: { amountMinor: 0, currency: 'USD' },
        discounts: { amountMinor: 0, currency: 'USD' },
        refunds: { count: 0, amount: { amountMinor: 0, currency: 'USD' } },
      },
      activeSubscriptions: 0,
      pastDueSubscriptions: 0,
    });
    const { page } = renderProduct([], { dashboard: productDashboard({ figures: empty, recentSales: [] }) });

    // Assess
    await page.findByRole('heading', { level: 1, name: 'Zine club' });
    const regions = page.getAllByRole('region');
    const grades = page.getByRole('region', { name: 'Grades' });
    const figures = page.getByRole('region', { name: 'Last 30 days' });
    expect(regions.indexOf(figures)).toBeGreaterThan(regions.indexOf(grades));
    expect(regions.at(-1)).toHaveAccessibleName('Recent sales');
    expect(page.getByRole('button', { name: 'New grade' })).toBeInTheDocument();
  });

  it('says a product on sale whose grades are all off sale is not on sale yet', async () => {
    // Prepare
    const dashboard = productDashboard({
      product: makeProduct({ hasGradeOnSale: false, priceFrom: null }),
      grades: [makeGrade({ stocked: false })],
    });
    const { page } = renderProduct([], { dashboard });

    // Assess
    expect(await page.findByText('Not on sale yet: put a grade on sale', { selector: 'span' })).toBeInTheDocument();
  });

  it('previews the shop card as the details are typed, before saving, then saves them all', async () => {
    // Prepare: the save answers when the test says
    let answer: () => void = () => undefined;
    const { page, user, api, state } = renderProduct([
      stubRoute(routes.updateProductDisplay, (request) => {
        const body = request.body as { title: string; display: { tagline: string; featured: boolean } };
        return new Promise((resolve) => {
          answer = () =>
            resolve({
              body: changeProduct(state, {
                title: body.title,
                display: { ...state.dashboard.product.display, tagline: body.display.tagline, featured: body.display.featured },
              }),
            });
        });
      }),
    ]);
    const details = await page.findByRole('region', { name: 'Product details' });
    const preview = within(details).getByRole('region', { name: 'Preview in your shop' });
    expect(preview).toHaveTextContent('Zine clubFresh ink every month');
    expect(preview).toHaveTextContent('From $9.00');

    // Act: a new title, tagline and featured, nothing saved yet
    const title = within(details).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Zine club deluxe');
    const tagline = within(details).getByRole('textbox', { name: 'Tagline' });
    await user.clear(tagline);
    await user.type(tagline, 'Two zines a month');
    await user.click(within(details).getByRole('checkbox', { name: /^Featured/ }));

    // Assess
    expect(preview).toHaveTextContent('FeaturedZine club deluxeTwo zines a month');
    expect(api.calls(routes.updateProductDisplay)).toHaveLength(0);
    expect(page.getByRole('heading', { level: 1 })).toHaveTextContent('Zine club');

    // Act
    await user.click(within(details).getByRole('button', { name: 'Save product' }));

    // Assess: busy until the server answers
    expect(await within(details).findByRole('button', { name: 'Saving…' })).toBeDisabled();

    // Act
    answer();

    // Assess: everything sent, the page shows the saved title
    await waitFor(() => expect(page.getByRole('heading', { level: 1 })).toHaveTextContent('Zine club deluxe'));
    expect(api.calls(routes.updateProductDisplay).map((request) => request.body)).toEqual([
      {
        title: 'Zine club deluxe',
        description: 'A new zine in your letterbox.',
        imageFileIds: ['file_cover_000001'],
        display: { tagline: 'Two zines a month', featured: true, position: 0, accentColor: '#1d4ed8' },
      },
    ]);
    expect(within(details).getByRole('button', { name: 'Save product' })).toBeEnabled();
  });

  it('shows the server’s refusal of the details beside the form and under the field', async () => {
    // Prepare
    const { page, user } = renderProduct([
      stubRoute(
        routes.updateProductDisplay,
        validationFailed([{ field: 'display.tagline', message: 'The tagline can be at most 120 characters' }]),
      ),
    ]);
    const details = await page.findByRole('region', { name: 'Product details' });

    // Act
    await user.click(within(details).getByRole('button', { name: 'Save product' }));

    // Assess
    expect(await within(details).findByRole('alert')).toHaveTextContent('Some fields need another look');
    expect(within(details).getByRole('textbox', { name: 'Tagline' })).toHaveAccessibleDescription(
      'A line under the title in your shop. The tagline can be at most 120 characters',
    );
  });

  it('changes who sees the product, and takes it off sale and back', async () => {
    // Prepare
    const { page, user, api, state } = renderProduct([
      stubRoute(routes.setProductVisibility, (request) => {
        changeProduct(state, { visibility: request.params.visibility as ProductStockView['visibility'] });
        return { body: true };
      }),
      stubRoute(routes.unstockProduct, () => {
        changeProduct(state, { stocked: false });
        return { body: true };
      }),
      stubRoute(routes.stockProduct, () => {
        changeProduct(state, { stocked: true });
        return { body: true };
      }),
    ]);
    const visibility = await page.findByRole('region', { name: 'Visibility' });
    expect(within(visibility).getByRole('button', { name: 'Save visibility' })).toBeDisabled();

    // Act
    await user.click(within(visibility).getByRole('radio', { name: /^Unlisted/ }));
    await user.click(within(visibility).getByRole('button', { name: 'Save visibility' }));

    // Assess: sent, and the page follows
    await waitFor(() => expect(page.getByText('Unlisted', { selector: 'span' })).toBeInTheDocument());
    expect(
      within(page.getByRole('region', { name: 'Visibility' })).getByRole('radio', { name: /^Unlisted \(now\)/ }),
    ).toBeChecked();
    expect(api.calls(routes.setProductVisibility).map((request) => request.params)).toEqual([
      { productStockId: PRODUCT_ID, visibility: 'unlisted' },
    ]);

    // Act
    const selling = page.getByRole('region', { name: 'Selling' });
    await user.click(within(selling).getByRole('button', { name: 'Stop selling' }));

    // Assess
    expect(await within(selling).findByRole('button', { name: 'Sell again' })).toBeInTheDocument();
    expect(selling).toHaveTextContent('Not on sale: nobody can buy this product. Its subscribers keep their subscriptions');
    expect(page.getByText('Not on sale', { selector: 'span' })).toBeInTheDocument();

    // Act
    await user.click(within(selling).getByRole('button', { name: 'Sell again' }));

    // Assess
    expect(await within(selling).findByRole('button', { name: 'Stop selling' })).toBeInTheDocument();
    expect(api.calls(routes.unstockProduct)).toHaveLength(1);
    expect(api.calls(routes.stockProduct)).toHaveLength(1);
  });

  it('adds a subscription grade: the price is sent in cents with the chosen plan and add-ons', async () => {
    // Prepare
    const { page, user, api, state } = renderProduct([
      stubRoute(routes.createGrade, () => {
        const grade = makeSubscriptionGrade({
          id: 'grd_hhhhhhhhhhhhhhhhhhhh',
          name: 'Quarterly club',
          display: { ...makeGrade().display },
        });
        state.dashboard = { ...state.dashboard, grades: [...state.dashboard.grades, grade] };
        return { body: grade };
      }),
    ]);
    const newGrade = await page.findByRole('button', { name: 'New grade' });

    // Act
    await user.click(newGrade);
    const dialog = await screen.findByRole('dialog', { name: 'New grade' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Quarterly club');
    await user.click(within(dialog).getByRole('radio', { name: /^Subscription/ }));
    await user.click(await within(dialog).findByRole('radio', { name: /^Quarterly/ }));

    // Assess: each plan says how often it bills and in what currency, and that its own price is not
    // what subscribers pay; the plan's price is offered as a start for the grade's
    expect(within(dialog).getByRole('radio', { name: /^Quarterly/ })).toHaveAccessibleName(
      'Quarterly every 3 months · USD · id quarterly · Braintree price $10.00, not charged',
    );
    expect(within(dialog).getByRole('group', { name: 'Plan' })).toHaveTextContent(
      'Subscribers pay the grade’s price each billing cycle, not the plan’s price in Braintree',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Price (USD)' })).toHaveAccessibleDescription(
      'Charged each billing cycle, in place of the plan’s price in Braintree.',
    );
    expect(within(dialog).getByRole('radio', { name: /^Euro monthly/ })).toBeDisabled();
    const price = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    expect(price).toHaveValue('10.00');

    // Act: another price, and one add-on offered up to three
    await user.clear(price);
    await user.type(price, '12.5');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Extra seat: $2.00 each, every 3 months' }));
    const most = within(dialog).getByRole('spinbutton', { name: 'Most per subscriber (Extra seat)' });
    await user.clear(most);
    await user.type(most, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Add grade' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(routes.createGrade).map((request) => [request.params, request.body])).toEqual([
      [
        { productStockId: PRODUCT_ID },
        {
          name: 'Quarterly club',
          description: '',
          amountMinor: 1250,
          subscription: { braintreePlanId: 'quarterly', addOns: [{ addOnId: 'extra-seat', maxQuantity: 3 }] },
          display: {},
          visibility: 'public',
        },
      ],
    ]);
    expect(await page.findByRole('link', { name: 'Quarterly club' })).toBeInTheDocument();
    expect(newGrade).toHaveFocus();
  });

  it('adds a grade sold once, checking the price before sending it', async () => {
    // Prepare
    const { page, user, api } = renderProduct([
      stubRoute(routes.createGrade, { body: makeGrade({ id: 'grd_iiiiiiiiiiiiiiiiiiii' }) }),
    ]);

    // Act: a price that is not a number
    await user.click(await page.findByRole('button', { name: 'New grade' }));
    const dialog = await screen.findByRole('dialog', { name: 'New grade' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Back issue');
    const price = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    await user.type(price, 'nine');
    await user.click(within(dialog).getByRole('button', { name: 'Add grade' }));

    // Assess
    expect(price).toHaveAccessibleDescription('Charged once. Give the price as a number, such as 9.50');
    expect(api.calls(routes.createGrade)).toHaveLength(0);

    // Act
    await user.clear(price);
    await user.type(price, '0.20');
    await user.click(within(dialog).getByRole('button', { name: 'Add grade' }));

    // Assess: the schema's own bounds
    expect(price).toHaveAccessibleDescription('Charged once. A price must be at least 0.50');

    // Act
    await user.clear(price);
    await user.type(price, '1,250.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add grade' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(routes.createGrade).map((request) => request.body)).toEqual([
      { name: 'Back issue', description: '', amountMinor: 125050, subscription: null, display: {}, visibility: 'public' },
    ]);
    expect(api.calls(routes.listMyGatewayPlans)).toHaveLength(0);
  });

  it('says clearly that payments must be connected before a subscription grade can be made', async () => {
    // Prepare
    const { page, user } = renderProduct([stubRoute(routes.listMyGatewayPlans, connectFirst)]);

    // Act
    await user.click(await page.findByRole('button', { name: 'New grade' }));
    const dialog = await screen.findByRole('dialog', { name: 'New grade' });
    await user.click(within(dialog).getByRole('radio', { name: /^Subscription/ }));

    // Assess
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Connect your Braintree account first: nothing can be sold or billed before.');
    expect(within(alert).getByRole('link', { name: 'Connect your payment account' })).toHaveAttribute('href', '/merchant');
  });

  it('answers another merchant’s product as not found', async () => {
    // Prepare
    const { page } = renderProduct([
      stubRoute(routes.showProductDashboard, { status: 404, body: { message: 'No such product.', code: 'NOT_FOUND' } }),
    ]);

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'No such product in your shop' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Go to your shop' })).toHaveAttribute('href', '/merchant');
  });
});
