import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { toast } from '../../../lib/toast';
import { jane, Page, renderShell } from '../../../test/render-shell';
import { type RouteStub, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { MerchantAccountView } from '../api/merchant-keys';
import { makeAccount, makeProduct, merchantDashboard, PRODUCT_ID, storedImage, validationFailed } from '../test-utils/fixtures';
import { MerchantHomePage } from './merchant-home-page';

const NOT_FOUND = { status: 404, body: { message: 'You have no shop yet.', code: 'NOT_FOUND' } } as const;
const emptyFeed = { body: { items: [], cursor: null } };

function renderHome(stubs: RouteStub[], signedIn: CurrentUser | null = jane) {
  const api = stubRoutes(
    ...stubs,
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const rendered = renderShell({
    path: '/merchant',
    user: signedIn,
    pages: [
      { path: 'merchant', Component: MerchantHomePage },
      { path: 'merchant/products/:productStockId', element: <Page name="Product page" /> },
    ],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

/** The dashboard's routes for a shop with an account: the lists empty unless given. */
function dashboardStubs(account: MerchantAccountView = makeAccount(), extra: RouteStub[] = []) {
  return [
    ...extra,
    stubRoute(routes.getMyMerchantAccount, { body: account }),
    stubRoute(routes.showMerchantDashboard, { body: merchantDashboard({ merchant: account }) }),
    stubRoute(routes.listMyStockedProducts, emptyFeed),
    stubRoute(routes.listMyUnstockedProducts, emptyFeed),
  ];
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('MerchantHomePage: opening a shop', () => {
  it('asks a visitor to log in, and asks the API nothing about shops', async () => {
    // Prepare
    const { page, user, api } = renderHome([], null);
    expect(page.getByRole('heading', { level: 1, name: 'Log in to sell on your own shop' })).toBeInTheDocument();

    // Act
    await user.click(page.getByRole('button', { name: 'Log in' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
    expect(api.calls(routes.getMyMerchantAccount)).toHaveLength(0);
  });

  it('registers a shop with its address shown as typed and an uploaded logo, then connects a local test account', async () => {
    // Prepare: no shop until it is registered
    let account: MerchantAccountView | null = null;
    const { page, user, api } = renderHome([
      stubRoute(routes.getMyMerchantAccount, () => (account ? { body: account } : NOT_FOUND)),
      stubRoute(routes.uploadImageByBase64, { body: storedImage('file_logo_0000001') }),
      stubRoute(routes.registerMerchant, (request) => {
        const body = request.body as { shopName: string; handle: string; currency: 'EUR' };
        account = makeAccount({
          shopName: body.shopName,
          handle: body.handle,
          currency: body.currency,
          gateway: null,
          logo: { fileId: 'file_logo_0000001', url: 'https://files.example/file_logo_0000001.png' },
        });
        return { body: account };
      }),
      stubRoute(routes.connectMerchantGateway, () => {
        account = makeAccount({ ...account, gateway: { ...makeAccount().gateway!, merchantId: 'local_jane' } });
        return { body: account };
      }),
      ...dashboardStubs(),
    ]);
    expect(await page.findByRole('heading', { level: 1, name: 'Open your shop' })).toBeInTheDocument();

    // Act: the name suggests the address, which is then made shorter by hand
    await user.type(page.getByRole('textbox', { name: 'Shop name' }), 'Jane’s Prints');

    // Assess
    const address = page.getByRole('textbox', { name: 'Shop address' });
    expect(address).toHaveValue('janes-prints');
    expect(address).toHaveAccessibleDescription(`Your shop will be at ${window.location.host}/shop/janes-prints`);

    // Act
    await user.clear(address);
    await user.type(address, 'jane-prints');
    await user.selectOptions(page.getByRole('combobox', { name: 'Currency' }), 'EUR');
    const logo = page.getByLabelText('Logo');
    // Assess: before choosing, a button-like label and the words for nothing chosen, read with the field
    expect(page.getByText('Choose logo…')).toBeInTheDocument();
    expect(logo).toHaveAccessibleDescription('No logo chosen Optional. PNG, JPEG, GIF, WebP or AVIF.');
    await user.upload(logo, new File(['fake png bytes'], 'logo.png', { type: 'image/png' }));

    // Assess: the address follows the typing; the logo is uploaded as base64 and shown
    expect(address).toHaveAccessibleDescription(`Your shop will be at ${window.location.host}/shop/jane-prints`);
    expect(await page.findByRole('img', { name: 'Logo' })).toHaveAttribute('src', 'https://files.example/file_logo_0000001.png');
    expect(api.calls(routes.uploadImageByBase64).map((request) => request.body)).toEqual([
      { name: 'logo.png', dataBase64: `data:image/png;base64,${btoa('fake png bytes')}` },
    ]);
    // The picker names what was chosen (never the browser's "No file chosen"), and offers to replace it
    expect(page.getByText('Replace logo')).toBeInTheDocument();
    expect(page.getByText('Chosen: logo.png')).toBeInTheDocument();
    expect(logo).toHaveAccessibleName('Logo');
    expect(logo).toHaveAccessibleDescription('Chosen: logo.png Optional. PNG, JPEG, GIF, WebP or AVIF.');
    logo.focus();
    expect(logo).toHaveFocus();

    // Act
    await user.type(page.getByRole('textbox', { name: 'Description' }), 'Risograph prints.');
    await user.click(page.getByRole('button', { name: 'Open shop' }));

    // Assess: on to connecting, with the shop's address
    expect(await page.findByRole('heading', { level: 1, name: 'Connect your payment account' })).toBeInTheDocument();
    expect(page.getByRole('status')).toHaveTextContent('Your shop is open at /shop/jane-prints.');
    expect(api.calls(routes.registerMerchant).map((request) => request.body)).toEqual([
      {
        shopName: 'Jane’s Prints',
        handle: 'jane-prints',
        currency: 'EUR',
        description: 'Risograph prints.',
        logoFileId: 'file_logo_0000001',
      },
    ]);

    // Act
    await user.click(page.getByRole('button', { name: 'Use a local test account' }));

    // Assess: what is connected, and the webhook address to copy
    expect(await page.findByRole('heading', { level: 1, name: 'Payments connected' })).toBeInTheDocument();
    const facts = page.getByRole('region', { name: 'Your payment account' });
    expect(facts).toHaveTextContent('AccountLocal test account');
    expect(facts).toHaveTextContent('Merchant IDlocal_jane');
    expect(within(facts).getByRole('textbox', { name: 'Webhook address' })).toHaveValue(
      'http://localhost:3000/api/e/braintree/merchant/mer_aaaaaaaaaaaaaaaaaaaa/webhook',
    );
    expect(api.calls(routes.connectMerchantGateway).map((request) => request.body)).toEqual([{ environment: 'local' }]);

    // Act
    await user.click(page.getByRole('button', { name: 'Go to your dashboard' }));

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Jane’s Prints' })).toBeInTheDocument();
    expect(page.queryByText('Your shop does not take payments yet.', { exact: false })).not.toBeInTheDocument();
  });

  it('checks the form before sending, and shows the server’s refusal in an alert with nothing made', async () => {
    // Prepare
    const { page, user, api } = renderHome([
      stubRoute(routes.getMyMerchantAccount, NOT_FOUND),
      stubRoute(routes.registerMerchant, {
        status: 409,
        body: { message: 'The shop address jane-prints is taken: choose another.', code: 'CONFLICT' },
      }),
    ]);

    // Act: nothing filled in
    await user.click(await page.findByRole('button', { name: 'Open shop' }));

    // Assess: the fields say what is missing, and nothing was sent
    expect(page.getByRole('textbox', { name: 'Shop name' })).toHaveAccessibleDescription('Give the shop name');
    expect(page.getByRole('textbox', { name: 'Shop address' })).toBeInvalid();
    expect(api.calls(routes.registerMerchant)).toHaveLength(0);

    // Act
    await user.type(page.getByRole('textbox', { name: 'Shop name' }), 'Jane Prints');
    await user.click(page.getByRole('button', { name: 'Open shop' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('The shop address jane-prints is taken: choose another.');
    expect(page.getByRole('heading', { level: 1, name: 'Open your shop' })).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Open shop' })).toBeEnabled();
  });

  it('connects Braintree keys with the private key hidden, and shows only the environment, merchant id and webhook address', async () => {
    // Prepare: a shop with no payment account; a first try with a local account is refused, as in AWS
    const sandbox = makeAccount({
      gateway: {
        environment: 'sandbox',
        merchantId: 'abc123merchant',
        connectedAt: '2026-11-05T10:00:00.000Z',
        webhookUrl: 'https://shop.example/api/e/braintree/merchant/mer_aaaaaaaaaaaaaaaaaaaa/webhook',
      },
    });
    const { page, user, api } = renderHome(
      dashboardStubs(makeAccount({ gateway: null }), [
        stubRoute(routes.connectMerchantGateway, (request) =>
          (request.body as { environment: string }).environment === 'local'
            ? {
                status: 400,
                body: { message: 'Local test accounts exist only on a copy of the site running locally.', code: 'BAD_REQUEST' },
              }
            : { body: sandbox },
        ),
      ]),
    );
    const notice = await page.findByText('Your shop does not take payments yet.');

    // Act
    await user.click(within(notice.closest('div')!).getByRole('button', { name: 'Connect payments' }));
    await user.click(await page.findByRole('button', { name: 'Use a local test account' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent(
      'Local test accounts exist only on a copy of the site running locally.',
    );

    // Act
    const keys = page.getByRole('form', { name: 'Connect your Braintree account' });
    await user.type(within(keys).getByRole('textbox', { name: 'Merchant ID' }), 'abc123merchant');
    await user.type(within(keys).getByRole('textbox', { name: 'Public key' }), 'publickey12345');
    const privateKey = within(keys).getByLabelText('Private key');
    expect(privateKey).toHaveAttribute('type', 'password');
    await user.type(privateKey, 'privatekey0123456789abcdef');
    await user.click(within(keys).getByRole('button', { name: 'Connect Braintree account' }));

    // Assess: sent once; the answer shows what is connected, never the key
    expect(await page.findByRole('heading', { level: 1, name: 'Payments connected' })).toBeInTheDocument();
    expect(api.calls(routes.connectMerchantGateway).map((request) => request.body)).toEqual([
      { environment: 'local' },
      {
        environment: 'sandbox',
        merchantId: 'abc123merchant',
        publicKey: 'publickey12345',
        privateKey: 'privatekey0123456789abcdef',
      },
    ]);
    const facts = page.getByRole('region', { name: 'Your payment account' });
    expect(facts).toHaveTextContent('AccountBraintree sandbox');
    expect(facts).toHaveTextContent('Merchant IDabc123merchant');
    expect(within(facts).getByRole('textbox', { name: 'Webhook address' })).toHaveValue(sandbox.gateway!.webhookUrl);
    expect(document.body.innerHTML).not.toContain('privatekey0123456789abcdef');
  });
});

describe('MerchantHomePage: the dashboard', () => {
  it('draws revenue and orders by day with the same figures in a table, the totals and the recent sales', async () => {
    // Prepare
    const { page } = renderHome(dashboardStubs());

    // Assess: the totals
    const figures = await page.findByRole('region', { name: 'Last 30 days' });
    expect(figures).toHaveTextContent('Revenue$84.00');
    expect(figures).toHaveTextContent('Orders6');
    expect(figures).toHaveTextContent('Units sold7');
    expect(figures).toHaveTextContent('Active subscriptions4');
    expect(figures).toHaveTextContent('Past due1');
    // Revenue is net of the refunds, named beside the discounts given.
    expect(figures).toHaveTextContent('Discounts given$4.50');
    expect(figures).toHaveTextContent('Refunds$13.26 (2)');

    // Assess: each chart is a picture with a summary, a bar per day with sales, and a table of every day
    const revenue = within(figures).getByRole('figure', { name: 'Revenue by day' });
    expect(within(revenue).getByRole('img')).toHaveAccessibleName(
      'Revenue by day: $84.00 in all over 30 days, the most $51.00 on 17 Nov.',
    );
    expect(revenue.querySelectorAll('rect')).toHaveLength(3);
    const revenueRows = within(within(revenue).getByRole('table', { name: 'Revenue by day' })).getAllByRole('row');
    expect(revenueRows).toHaveLength(31);
    expect(revenueRows[1]).toHaveTextContent('1 Nov$0.00');
    expect(revenueRows[17]).toHaveTextContent('17 Nov$51.00');
    expect(revenueRows[30]).toHaveTextContent('30 Nov$24.00');
    const orders = within(figures).getByRole('figure', { name: 'Orders by day' });
    expect(within(within(orders).getByRole('table')).getAllByRole('row')[17]).toHaveTextContent('17 Nov3');

    // Assess: the recent sales, a renewal said as such
    const sales = page.getByRole('table', { name: 'Recent sales' });
    expect(
      within(sales)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        ),
    ).toEqual([
      // An order can be refunded from its row; a renewal has no order of its own.
      ['30 November 2026', 'Sam Buyersam@example.com', 'Zine club, Single issue × 2', '$18.00', 'Refund'],
      ['17 November 2026', 'Alex Reader', 'Renewal: Zine club, Monthly club', '$15.00', ''],
    ]);
    expect(page.getByRole('link', { name: 'View your shop' })).toHaveAttribute('href', '/shop/janes-prints');
  });

  it('lists stocked products a page at a time, and the unstocked ones in their own tab', async () => {
    // Prepare
    const { page, user, api } = renderHome([
      stubRoute(routes.listMyStockedProducts, (request) =>
        request.url.searchParams.get('cursor') === 'page2'
          ? {
              body: {
                // Put on sale, but with no grade yet: nothing to buy.
                items: [
                  makeProduct({
                    id: 'prd_ffffffffffffffffffff',
                    title: 'Poster',
                    gradeCount: 0,
                    hasGradeOnSale: false,
                    priceFrom: null,
                  }),
                ],
                cursor: null,
              },
            }
          : { body: { items: [makeProduct()], cursor: 'page2' } },
      ),
      stubRoute(routes.listMyUnstockedProducts, {
        body: {
          items: [makeProduct({ id: 'prd_eeeeeeeeeeeeeeeeeeee', title: 'Old calendar', stocked: false, priceFrom: null })],
          cursor: null,
        },
      }),
      ...dashboardStubs(),
    ]);
    const products = await page.findByRole('region', { name: 'Products' });

    // Assess
    const stockedTab = await within(products).findByRole('tab', { name: 'Stocked (3)' });
    expect(stockedTab).toHaveAttribute('aria-selected', 'true');
    const panel = within(products).getByRole('tabpanel', { name: 'Stocked (3)' });
    expect(await within(panel).findByRole('link', { name: 'Zine club' })).toHaveAttribute(
      'href',
      `/merchant/products/${PRODUCT_ID}`,
    );
    expect(within(panel).getByRole('listitem')).toHaveTextContent('Public · On sale · 2 grades');
    expect(within(panel).getByRole('listitem')).toHaveTextContent('from $9.00');
    expect(api.calls(routes.listMyUnstockedProducts)).toHaveLength(0);

    // Act
    await user.click(within(panel).getByRole('button', { name: 'Load more' }));

    // Assess
    expect(await within(panel).findByRole('link', { name: 'Poster' })).toBeInTheDocument();
    expect(within(panel).getAllByRole('listitem')).toHaveLength(2);
    expect(within(panel).getAllByRole('listitem')[1]).toHaveTextContent('Public · Not on sale yet: add a grade · 0 grades');
    expect(within(panel).getAllByRole('listitem')[1]).not.toHaveTextContent('On sale ·');
    expect(within(panel).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    // Act: the arrow key moves to the other tab
    stockedTab.focus();
    await user.keyboard('{ArrowRight}');

    // Assess
    const unstocked = within(products).getByRole('tab', { name: 'Unstocked (1)' });
    expect(unstocked).toHaveFocus();
    expect(unstocked).toHaveAttribute('aria-selected', 'true');
    const unstockedPanel = within(products).getByRole('tabpanel', { name: 'Unstocked (1)' });
    expect(await within(unstockedPanel).findByRole('link', { name: 'Old calendar' })).toBeInTheDocument();
    expect(within(unstockedPanel).getByRole('listitem')).toHaveTextContent('Public · Not on sale');
    expect(within(unstockedPanel).getByRole('listitem')).toHaveTextContent('Not for sale yet');
  });

  it('creates a product from the dialog and opens its page; Cancel gives focus back to the button', async () => {
    // Prepare
    const { page, user, api, router } = renderHome(
      dashboardStubs(makeAccount(), [
        stubRoute(routes.createProductStock, (request) => ({
          body: makeProduct({
            id: 'prd_gggggggggggggggggggg',
            title: (request.body as { title: string }).title,
            visibility: 'unlisted',
          }),
        })),
      ]),
    );
    const newProduct = await page.findByRole('button', { name: 'New product' });

    // Act: open and cancel
    await user.click(newProduct);
    await user.click(within(await screen.findByRole('dialog', { name: 'New product' })).getByRole('button', { name: 'Cancel' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(newProduct).toHaveFocus();

    // Act: open, fill in and create
    await user.click(newProduct);
    const dialog = await screen.findByRole('dialog', { name: 'New product' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Sticker pack');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Ten stickers.');
    expect(within(dialog).getByRole('radio', { name: /^Private/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /^Unlisted/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create product' }));

    // Assess: made as given, and its page opened
    await waitFor(() => expect(router.state.location.pathname).toBe('/merchant/products/prd_gggggggggggggggggggg'));
    expect(await screen.findByRole('heading', { name: 'Product page' })).toBeInTheDocument();
    expect(api.calls(routes.createProductStock).map((request) => request.body)).toEqual([
      { title: 'Sticker pack', description: 'Ten stickers.', imageFileIds: [], display: {}, visibility: 'unlisted' },
    ]);
  });

  it('shows why a product was refused next to the form, and keeps the dialog open', async () => {
    // Prepare
    const { page, user } = renderHome(
      dashboardStubs(makeAccount(), [
        stubRoute(
          routes.createProductStock,
          validationFailed([{ field: 'title', message: 'The title can be at most 120 characters' }]),
        ),
      ]),
    );

    // Act
    await user.click(await page.findByRole('button', { name: 'New product' }));
    const dialog = await screen.findByRole('dialog', { name: 'New product' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Sticker pack');
    await user.click(within(dialog).getByRole('button', { name: 'Create product' }));

    // Assess
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Some fields need another look');
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription(
      'The title can be at most 120 characters',
    );
  });
});
