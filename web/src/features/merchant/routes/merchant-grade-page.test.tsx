import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { toast } from '../../../lib/toast';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { GradeDashboard, GradeView } from '../api/merchant-keys';
import {
  connectFirst,
  gradeDashboard,
  makeGrade,
  plans,
  PRODUCT_ID,
  SUB_GRADE_ID,
  validationFailed,
} from '../test-utils/fixtures';
import { MerchantGradePage } from './merchant-grade-page';

/** The grade's routes, its dashboard following `state` so a change shows after the refetch. */
function renderGrade(stubs: RouteStub[] = [], state: { dashboard: GradeDashboard } = { dashboard: gradeDashboard() }) {
  const api = stubRoutes(
    ...stubs,
    stubRoute(routes.showGradeDashboard, () => ({ body: state.dashboard })),
    stubRoute(routes.listMyGatewayPlans, { body: plans }),
    stubRoute(routes.listGradeFiles, { body: { downloadsPerPurchase: 5, items: [] } }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const gradeId = state.dashboard.grade.id;
  const rendered = renderShell({
    path: `/merchant/products/${PRODUCT_ID}/grades/${gradeId}`,
    user: jane,
    pages: [{ path: 'merchant/products/:productStockId/grades/:productStockGradeId', Component: MerchantGradePage }],
  });
  return { ...rendered, api, state, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

/** The grade as the server keeps it after a change, answered by the dashboard from then on. */
function changeGrade(state: { dashboard: GradeDashboard }, changes: Partial<GradeView>): GradeView {
  state.dashboard = { ...state.dashboard, grade: { ...state.dashboard.grade, ...changes } };
  return state.dashboard.grade;
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('MerchantGradePage', () => {
  it('shows the grade in its product, its price and billing, and its figures', async () => {
    // Prepare
    const { page } = renderGrade();

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Monthly club' })).toBeInTheDocument();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Zine club' })).toHaveAttribute(
      'href',
      `/merchant/products/${PRODUCT_ID}`,
    );
    expect(page.getByText('$15.00 every month', { selector: 'span' })).toBeInTheDocument();
    expect(page.getByRole('region', { name: 'Billing' })).toHaveTextContent(
      'Now: A subscription on the plan monthly, billed every month, with Extra seat (up to 3).',
    );
    expect(page.getByRole('region', { name: 'Last 30 days' })).toHaveTextContent('Active subscriptions4');
    expect(within(page.getByRole('table', { name: 'Recent sales' })).getAllByRole('row')).toHaveLength(2);
    expect(await page.findByRole('region', { name: 'Files delivered after purchase' })).toHaveTextContent('No files yet');
  });

  it('previews the grade card as it is edited, features included, then saves the display', async () => {
    // Prepare
    const { page, user, api, state } = renderGrade([
      stubRoute(routes.updateGradeDisplay, (request) => {
        const body = request.body as { name: string; display: GradeView['display'] };
        return { body: changeGrade(state, { name: body.name, display: body.display }) };
      }),
    ]);
    const details = await page.findByRole('region', { name: 'Grade details' });
    const preview = within(details).getByRole('region', { name: 'Preview on the product’s page' });
    expect(preview).toHaveTextContent('Monthly clubMost popular$15.00 every month');

    // Act
    const name = within(details).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Monthly club plus');
    await user.clear(within(details).getByRole('textbox', { name: 'Badge' }));
    await user.click(within(details).getByRole('button', { name: 'Remove feature 2' }));
    await user.click(within(details).getByRole('button', { name: 'Add a feature' }));
    await user.type(within(details).getByRole('textbox', { name: 'Feature 2' }), 'A tote bag');

    // Assess: the card follows; no badge, so its highlight is said in words
    expect(preview).toHaveTextContent('Monthly club plusHighlighted$15.00 every month');
    expect(
      within(within(preview).getByRole('list', { name: 'Included' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Every issue', 'A tote bag']);
    expect(api.calls(routes.updateGradeDisplay)).toHaveLength(0);

    // Act
    await user.click(within(details).getByRole('checkbox', { name: /^Highlighted/ }));
    await user.click(within(details).getByRole('button', { name: 'Save grade' }));

    // Assess
    await waitFor(() => expect(page.getByRole('heading', { level: 1 })).toHaveTextContent('Monthly club plus'));
    expect(api.calls(routes.updateGradeDisplay).map((request) => [request.params, request.body])).toEqual([
      [
        { productStockId: PRODUCT_ID, productStockGradeId: SUB_GRADE_ID },
        {
          name: 'Monthly club plus',
          description: 'Every issue as it comes out.',
          display: { badge: '', highlighted: false, position: 1, features: ['Every issue', 'A tote bag'] },
        },
      ],
    ]);
  });

  it('sets the price in cents, and shows a refused one beside the form', async () => {
    // Prepare: the first price is refused by the server, the second taken
    let attempts = 0;
    const { page, user, api, state } = renderGrade([
      stubRoute(routes.updateGradeCost, (request) => {
        attempts += 1;
        if (attempts === 1) return validationFailed([{ field: 'amountMinor', message: 'A price can be at most 100,000.00' }]);
        const { amountMinor } = request.body as { amountMinor: number };
        return { body: changeGrade(state, { price: { amountMinor, currency: 'USD' } }) };
      }),
    ]);
    const section = await page.findByRole('region', { name: 'Price' });
    const price = within(section).getByRole('textbox', { name: 'Price (USD)' });
    expect(price).toHaveValue('15.00');

    // Act: not a number
    await user.clear(price);
    await user.type(price, 'free');
    await user.click(within(section).getByRole('button', { name: 'Save price' }));

    // Assess
    expect(price).toHaveAccessibleDescription(expect.stringContaining('Give the price as a number, such as 9.50'));
    expect(api.calls(routes.updateGradeCost)).toHaveLength(0);

    // Act
    await user.clear(price);
    await user.type(price, '99999.99');
    await user.click(within(section).getByRole('button', { name: 'Save price' }));

    // Assess
    expect(await within(section).findByRole('alert')).toHaveTextContent(/^A price can be at most 100,000.00$/);

    // Act
    await user.clear(price);
    await user.type(price, '19.99');
    await user.click(within(section).getByRole('button', { name: 'Save price' }));

    // Assess
    await waitFor(() => expect(page.getByText('$19.99 every month', { selector: 'span' })).toBeInTheDocument());
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls(routes.updateGradeCost).map((request) => request.body)).toEqual([
      { amountMinor: 9999999 },
      { amountMinor: 1999 },
    ]);
  });

  it('makes a grade sold once a subscription on a chosen plan and add-on, after a 409 says to connect first', async () => {
    // Prepare: a grade sold once; the first save finds no payment account
    let attempts = 0;
    const state = { dashboard: gradeDashboard({ grade: makeGrade() }) };
    const { page, user, api } = renderGrade(
      [
        stubRoute(routes.updateGradeSubscription, () => {
          attempts += 1;
          if (attempts === 1) return connectFirst;
          return {
            body: changeGrade(state, {
              billing: {
                kind: 'subscription',
                braintreePlanId: 'yearly',
                billingFrequencyMonths: 12,
                addOns: [
                  {
                    addOnId: 'priority-support',
                    name: 'Priority support',
                    price: { amountMinor: 500, currency: 'USD' },
                    maxQuantity: 1,
                  },
                ],
              },
            }),
          };
        }),
      ],
      state,
    );
    const billing = await page.findByRole('region', { name: 'Billing' });
    expect(billing).toHaveTextContent('Now: Sold once.');
    expect(page.queryByRole('region', { name: 'Plan' })).not.toBeInTheDocument();

    // Act
    await user.click(within(billing).getByRole('radio', { name: /^Subscription/ }));
    await user.click(await within(billing).findByRole('radio', { name: /^Yearly/ }));
    await user.click(within(billing).getByRole('checkbox', { name: 'Priority support: $5.00 each, every year' }));
    await user.click(within(billing).getByRole('button', { name: 'Save billing' }));

    // Assess
    const alert = await within(billing).findByRole('alert');
    expect(alert).toHaveTextContent('Connect your Braintree account first');
    expect(within(alert).getByRole('link', { name: 'Connect your payment account' })).toHaveAttribute('href', '/merchant');

    // Act: connected meanwhile
    await user.click(within(billing).getByRole('button', { name: 'Save billing' }));

    // Assess
    await waitFor(() =>
      expect(page.getByRole('region', { name: 'Billing' })).toHaveTextContent(
        'Now: A subscription on the plan yearly, billed every year, with Priority support (up to 1).',
      ),
    );
    const body = { subscription: { braintreePlanId: 'yearly', addOns: [{ addOnId: 'priority-support', maxQuantity: 1 }] } };
    expect(api.calls(routes.updateGradeSubscription).map((request) => request.body)).toEqual([body, body]);
    expect(page.getByRole('region', { name: 'Plan' })).toBeInTheDocument();
  });

  it('sells a subscription grade once again, and moves one to another plan', async () => {
    // Prepare
    const { page, user, api, state } = renderGrade([
      stubRoute(routes.updateGradePlan, (request) => {
        const billing = state.dashboard.grade.billing;
        if (billing.kind !== 'subscription') throw new Error('Not a subscription');
        const { braintreePlanId } = request.body as { braintreePlanId: string };
        return { body: changeGrade(state, { billing: { ...billing, braintreePlanId, billingFrequencyMonths: 3 } }) };
      }),
      stubRoute(routes.updateGradeSubscription, () => ({ body: changeGrade(state, { billing: { kind: 'once' } }) })),
    ]);
    const plan = await page.findByRole('region', { name: 'Plan' });
    const select = within(plan).getByRole('combobox', { name: 'Braintree plan' });
    await waitFor(() => expect(select).toBeEnabled());
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Monthly (monthly): every month, Braintree price $10.00, not charged',
      'Quarterly (quarterly): every 3 months, Braintree price $10.00, not charged',
      'Yearly (yearly): every year, Braintree price $10.00, not charged',
    ]);
    // The checkout charges the grade's price, not the plan's: said with the grade's own price
    expect(plan).toHaveTextContent('Subscribers pay this grade’s price, $15.00 every month, not the plan’s price in Braintree.');
    expect(within(plan).getByRole('button', { name: 'Move to this plan' })).toBeDisabled();

    // Act
    await user.selectOptions(select, 'quarterly');
    await user.click(within(plan).getByRole('button', { name: 'Move to this plan' }));

    // Assess
    await waitFor(() =>
      expect(page.getByRole('region', { name: 'Billing' })).toHaveTextContent(
        'A subscription on the plan quarterly, billed every 3 months',
      ),
    );
    expect(api.calls(routes.updateGradePlan).map((request) => request.body)).toEqual([{ braintreePlanId: 'quarterly' }]);

    // Act
    const billing = page.getByRole('region', { name: 'Billing' });
    await user.click(within(billing).getByRole('radio', { name: /^Sell once/ }));
    await user.click(within(billing).getByRole('button', { name: 'Save billing' }));

    // Assess
    await waitFor(() => expect(page.getByRole('region', { name: 'Billing' })).toHaveTextContent('Now: Sold once.'));
    expect(api.calls(routes.updateGradeSubscription).map((request) => request.body)).toEqual([{ subscription: null }]);
    expect(page.queryByRole('region', { name: 'Plan' })).not.toBeInTheDocument();
  });

  it('makes the grade private and takes it off sale, by the grade’s own routes', async () => {
    // Prepare
    const { page, user, api, state } = renderGrade([
      stubRoute(routes.setGradeVisibility, (request) => {
        changeGrade(state, { visibility: request.params.visibility as GradeView['visibility'] });
        return { body: true };
      }),
      stubRoute(routes.unstockGrade, () => {
        changeGrade(state, { stocked: false, purchasable: false });
        return { body: true };
      }),
    ]);
    const visibility = await page.findByRole('region', { name: 'Visibility' });

    // Act
    await user.click(within(visibility).getByRole('radio', { name: /^Private/ }));
    await user.click(within(visibility).getByRole('button', { name: 'Save visibility' }));
    await waitFor(() => expect(page.getByText('Private', { selector: 'span' })).toBeInTheDocument());
    await user.click(within(page.getByRole('region', { name: 'Selling' })).getByRole('button', { name: 'Stop selling' }));

    // Assess
    expect(await page.findByRole('button', { name: 'Sell again' })).toBeInTheDocument();
    expect(api.calls(routes.setGradeVisibility).map((request) => request.params)).toEqual([
      { productStockGradeId: SUB_GRADE_ID, visibility: 'private' },
    ]);
    expect(api.calls(routes.unstockGrade).map((request) => request.params)).toEqual([{ productStockGradeId: SUB_GRADE_ID }]);
  });

  it('answers another merchant’s grade as not found', async () => {
    // Prepare
    const { page } = renderGrade([
      stubRoute(routes.showGradeDashboard, { status: 404, body: { message: 'No such grade.', code: 'NOT_FOUND' } }),
    ]);

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'No such grade in your shop' })).toBeInTheDocument();
  });
});
