import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { DiscountCodeView } from '../api/merchant-keys';
import { makeAccount, makeProduct, merchantDashboard } from '../test-utils/fixtures';
import { MerchantHomePage } from './merchant-home-page';

const spring = (overrides: Partial<DiscountCodeView> = {}): DiscountCodeView => ({
  code: 'SPRING',
  kind: 'percent',
  value: 20,
  currency: 'USD',
  scope: { kind: 'shop', ids: [] },
  startsAt: null,
  endsAt: null,
  maxUses: 100,
  usesCount: 3,
  oncePerCustomer: false,
  appliesTo: 'first',
  active: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

function renderDashboard(codes: DiscountCodeView[][], extra: RouteStub[] = []) {
  let served = 0;
  const account = makeAccount();
  const api = stubRoutes(
    ...extra,
    stubRoute(routes.listMyDiscountCodes, () => ({ body: { items: codes[Math.min(served++, codes.length - 1)] ?? [] } })),
    stubRoute(routes.getMyMerchantAccount, { body: account }),
    stubRoute(routes.showMerchantDashboard, { body: merchantDashboard({ merchant: account }) }),
    stubRoute(routes.listMyStockedProducts, { body: { items: [makeProduct()], cursor: null } }),
    stubRoute(routes.listMyUnstockedProducts, { body: { items: [], cursor: null } }),
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({ path: '/merchant', user: jane, pages: [{ path: 'merchant', Component: MerchantHomePage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

describe('MerchantHomePage: discount codes', () => {
  it('creates a code from the form, sending cents for an amount, and lists it with its uses', async () => {
    // Prepare
    const created = spring({ code: 'WELCOME5', kind: 'amount', value: 500, maxUses: 10, usesCount: 0, oncePerCustomer: true });
    const { page, user, api } = renderDashboard([[], [created]], [stubRoute(routes.createDiscountCode, { body: created })]);
    const form = await page.findByRole('form', { name: 'New discount code' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'WELCOME5');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind of discount' }), 'amount');
    await user.type(within(form).getByRole('textbox', { name: 'Amount off (USD)' }), '5.00');
    await user.type(within(form).getByRole('textbox', { name: 'Number of uses' }), '10');
    await user.click(within(form).getByRole('checkbox', { name: 'Once per customer' }));
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess
    expect(await within(form).findByRole('status')).toHaveTextContent('Code WELCOME5 created.');
    expect(api.calls(routes.createDiscountCode).map((request) => request.body)).toEqual([
      {
        code: 'WELCOME5',
        kind: 'amount',
        value: 500,
        scope: { kind: 'shop' },
        maxUses: 10,
        oncePerCustomer: true,
        appliesTo: 'first',
      },
    ]);
    const list = await page.findByRole('list', { name: 'Your discount codes' });
    expect(list).toHaveTextContent('WELCOME5');
    expect(list).toHaveTextContent('$5.00 off everything (the first subscription charge), once per customer');
    expect(list).toHaveTextContent('0 of 10 uses');
  });

  it('refuses a percentage over 100 before asking the server, and shows the server’s refusal of a taken code', async () => {
    // Prepare
    const { page, user, api } = renderDashboard(
      [[]],
      [
        stubRoute(routes.createDiscountCode, {
          status: 409,
          body: { message: 'Your shop has a code SPRING already (codes do not depend on case).', code: 'CONFLICT' },
        }),
      ],
    );
    const form = await page.findByRole('form', { name: 'New discount code' });
    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'spring');
    await user.type(within(form).getByRole('textbox', { name: 'Percentage off' }), '150');

    // Act 1
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess 1
    expect(await within(form).findByText('A percentage is at most 100')).toBeInTheDocument();
    expect(api.calls(routes.createDiscountCode)).toHaveLength(0);

    // Act 2
    await user.clear(within(form).getByRole('textbox', { name: 'Percentage off' }));
    await user.type(within(form).getByRole('textbox', { name: 'Percentage off' }), '15');
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess 2
    expect(await within(form).findByRole('alert')).toHaveTextContent('Your shop has a code SPRING already');
  });

  it('deactivates a code from the list', async () => {
    // Prepare
    const { page, user, api } = renderDashboard(
      [[spring()], [spring({ active: false })]],
      [stubRoute(routes.deactivateDiscountCode, { body: spring({ active: false }) })],
    );
    const list = await page.findByRole('list', { name: 'Your discount codes' });
    expect(list).toHaveTextContent('3 of 100 uses');

    // Act
    await user.click(within(list).getByRole('button', { name: 'Deactivate SPRING' }));

    // Assess
    expect(await within(list).findByText(/deactivated/)).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Deactivate SPRING' })).not.toBeInTheDocument();
    expect(api.calls(routes.deactivateDiscountCode).map((request) => request.params)).toEqual([{ code: 'SPRING' }]);
  });
});
