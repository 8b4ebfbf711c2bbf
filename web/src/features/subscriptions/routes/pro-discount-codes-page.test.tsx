import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { DiscountCodeView } from '../api/pro-discount-code-keys';
import { ProDiscountCodesPage } from './pro-discount-codes-page';

const superuser = { ...jane, isSuperUser: true };

const launch = (overrides: Partial<DiscountCodeView> = {}): DiscountCodeView => ({
  code: 'LAUNCH',
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

function renderCodesPage(codes: DiscountCodeView[][], { user = superuser, extra = [] as RouteStub[] } = {}) {
  let served = 0;
  const api = stubRoutes(
    ...extra,
    stubRoute(routes.listProDiscountCodes, () => ({ body: { items: codes[Math.min(served++, codes.length - 1)] ?? [] } })),
  );
  renderShell({ path: '/pro-codes', user, pages: [{ path: 'pro-codes', Component: ProDiscountCodesPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProDiscountCodesPage', () => {
  it('creates a code from the form, sending cents for an amount, and lists it with its uses', async () => {
    // Prepare
    const created = launch({
      code: 'WELCOME5',
      kind: 'amount',
      value: 500,
      maxUses: 10,
      usesCount: 0,
      oncePerCustomer: true,
      appliesTo: 'every',
    });
    const { page, user, api } = renderCodesPage([[], [created]], {
      extra: [stubRoute(routes.createProDiscountCode, { body: created })],
    });
    const form = await page.findByRole('form', { name: 'New Pro discount code' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'WELCOME5');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind of discount' }), 'amount');
    await user.type(within(form).getByRole('textbox', { name: 'Amount off (USD)' }), '5.00');
    await user.type(within(form).getByRole('textbox', { name: 'Number of uses' }), '10');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Applies to' }), 'every');
    await user.click(within(form).getByRole('checkbox', { name: 'Once per person' }));
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess
    expect(await within(form).findByRole('status')).toHaveTextContent('Code WELCOME5 created.');
    expect(api.calls(routes.createProDiscountCode).map((request) => request.body)).toEqual([
      { code: 'WELCOME5', kind: 'amount', value: 500, maxUses: 10, oncePerCustomer: true, appliesTo: 'every' },
    ]);
    const list = await page.findByRole('list', { name: 'Pro discount codes' });
    const row = await within(list).findByRole('listitem', { name: 'WELCOME5' });
    expect(row).toHaveTextContent('$5.00 off every charge, once per person');
    expect(row).toHaveTextContent('0 of 10 uses');
  });

  it('refuses a percentage over 100 before asking the server, and shows the server’s refusal of a taken code', async () => {
    // Prepare
    const { page, user, api } = renderCodesPage([[launch()]], {
      extra: [
        stubRoute(routes.createProDiscountCode, {
          status: 409,
          body: { code: 'CONFLICT', message: 'The Pro plan has a code LAUNCH already (codes do not depend on case).' },
        }),
      ],
    });
    const form = await page.findByRole('form', { name: 'New Pro discount code' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Code' }), 'launch');
    await user.type(within(form).getByRole('textbox', { name: 'Percentage off' }), '120');
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess
    expect(await within(form).findByText('A percentage is at most 100')).toBeInTheDocument();
    expect(api.calls(routes.createProDiscountCode)).toHaveLength(0);

    // Act 2
    await user.clear(within(form).getByRole('textbox', { name: 'Percentage off' }));
    await user.type(within(form).getByRole('textbox', { name: 'Percentage off' }), '20');
    await user.click(within(form).getByRole('button', { name: 'Create code' }));

    // Assess 2
    expect(await within(form).findByRole('alert')).toHaveTextContent('The Pro plan has a code LAUNCH already');
  });

  it('deactivates a code, which then shows as deactivated with no button', async () => {
    // Prepare
    const { page, user, api } = renderCodesPage([[launch()], [launch({ active: false })]], {
      extra: [stubRoute(routes.deactivateProDiscountCode, { body: launch({ active: false }) })],
    });
    const row = await page.findByRole('listitem', { name: 'LAUNCH' });

    // Act
    await user.click(within(row).getByRole('button', { name: 'Deactivate LAUNCH' }));

    // Assess
    expect(await within(row).findByText(/deactivated/)).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Deactivate LAUNCH' })).not.toBeInTheDocument();
    expect(api.calls(routes.deactivateProDiscountCode).map((request) => request.params)).toEqual([{ code: 'LAUNCH' }]);
  });

  it('tells someone who is not a superuser the page is not for them, and asks nothing of the server', async () => {
    // Prepare
    const { page, api } = renderCodesPage([[launch()]], { user: jane });

    // Assess
    expect(await page.findByRole('heading', { name: 'This page is for superusers' })).toBeInTheDocument();
    expect(api.calls(routes.listProDiscountCodes)).toHaveLength(0);
  });
});
