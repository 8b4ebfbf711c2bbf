import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, Page, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { CheckoutScreen } from '../api/subscription-keys';
import { canceledWithPaidTime, checkoutScreen, makeInvoice, makeSubscription, stubLocalGateway } from '../test-utils/fixtures';
import { CheckoutPage } from './checkout-page';

const DECLINED = 'Your bank declined this card (Do Not Honor). Nothing was charged: try another card.';

function renderCheckout({
  path = '/checkout?price=pro-monthly',
  screenData = checkoutScreen(),
  fulfill = { status: 500, body: { message: 'No answer set', code: 'INTERNAL' } },
  user = jane,
  resume = { status: 500, body: { message: 'No answer set', code: 'INTERNAL' } },
  invoice = { status: 500, body: { message: 'No answer set', code: 'INTERNAL' } },
}: {
  invoice?: StubAnswer<typeof routes.getCheckoutInvoice>;
  path?: string;
  screenData?: CheckoutScreen;
  fulfill?: StubAnswer<typeof routes.fulfillSubscriptionInvoice>;
  user?: CurrentUser | null;
  resume?: StubAnswer<typeof routes.resumeSubscription>;
} = {}) {
  const api = stubRoutes(
    stubRoute(routes.showCheckoutScreen, { body: screenData }),
    stubRoute(routes.fulfillSubscriptionInvoice, fulfill),
    stubRoute(routes.resumeSubscription, resume),
    stubRoute(routes.getCheckoutInvoice, invoice),
    stubRoute(routes.getMe, { body: jane }),
    // The login modal's bot check, for a visitor.
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  const tokenized = stubLocalGateway(api);
  const rendered = renderShell({
    path,
    user,
    pages: [
      { path: 'checkout', Component: CheckoutPage },
      { path: 'subscription', element: <Page name="Subscription page" /> },
    ],
  });
  // A visitor's page opens the login modal as it renders, hiding the page from queries by role as
  // soon as the modal's code has arrived: the page is found all the same.
  const main = screen.getByRole('main', { hidden: true });
  return { ...rendered, api, tokenized, user: userEvent.setup(), page: within(main) };
}

const paid = {
  body: {
    invoice: makeInvoice({ status: 'paid', paidAt: '2026-11-26T10:05:00.000Z', subscriptionId: 'sub_jane_1' }),
    subscription: makeSubscription(),
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CheckoutPage', () => {
  it('shows the order: the line, the total, and what is charged after', async () => {
    // Prepare
    const { page } = renderCheckout();

    // Assess
    const summary = await page.findByRole('region', { name: 'Order summary' });
    expect(within(summary).getByRole('list', { name: 'Order lines' })).toHaveTextContent('Transfer Pro, monthly$12.00');
    expect(summary).toHaveTextContent('Total today$12.00');
    expect(summary).toHaveTextContent('$12.00 today, then $12.00 every month, cancel any time.');
    const payment = page.getByRole('region', { name: 'Payment' });
    expect(within(payment).getByRole('form', { name: 'Card details' })).toHaveTextContent('No real card is charged');
    expect(within(payment).getByRole('button', { name: 'Pay $12.00' })).toBeEnabled();
  });

  it('applies a discount code priced by the server, shows the saving, pays the discounted invoice, and says why a code is refused', async () => {
    // Prepare: an unknown code first, then one the server prices
    const discounted = makeInvoice({
      id: 'inv_jane_code',
      total: { amountMinor: 900, currency: 'USD' },
      discount: { code: 'SPRING25', saving: { amountMinor: 300, currency: 'USD' }, appliesTo: 'first' },
    });
    const { page, user, api } = renderCheckout({
      invoice: (request) =>
        request.url.searchParams.get('discountCode') === 'NOPE'
          ? {
              status: 400,
              body: { code: 'DISCOUNT_CODE_REFUSED', message: 'There is no Pro plan discount code NOPE: check how it is spelt.' },
            }
          : { body: { invoice: discounted } },
      fulfill: paid,
    });
    const codeForm = await page.findByRole('form', { name: 'Discount code' });

    // Act: the unknown code
    await user.type(within(codeForm).getByRole('textbox', { name: 'Discount code' }), 'NOPE');
    await user.click(within(codeForm).getByRole('button', { name: 'Apply' }));

    // Assess: the server's reason under the field; the price is unchanged
    expect(
      await within(codeForm).findByText('There is no Pro plan discount code NOPE: check how it is spelt.'),
    ).toBeInTheDocument();
    expect(page.getByRole('region', { name: 'Order summary' })).toHaveTextContent('Total today$12.00');

    // Act: a good code, then pay
    await user.clear(within(codeForm).getByRole('textbox', { name: 'Discount code' }));
    await user.type(within(codeForm).getByRole('textbox', { name: 'Discount code' }), 'spring25');
    await user.click(within(codeForm).getByRole('button', { name: 'Apply' }));
    const codeSection = page.getByRole('region', { name: 'Discount code' });
    expect(await within(codeSection).findByRole('status')).toHaveTextContent(
      'Code SPRING25 applied: you save $3.00 on your first charge.',
    );
    const summary = page.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByRole('list', { name: 'Order lines' })).toHaveTextContent('Discount code SPRING25−$3.00');
    expect(summary).toHaveTextContent('$9.00 today, then $12.00 every month');
    const form = page.getByRole('form', { name: 'Card details' });
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Pay $9.00' }));

    // Assess: the code went to the server as typed; the discounted invoice is the one paid
    await waitFor(() => expect(api.calls(routes.fulfillSubscriptionInvoice)).toHaveLength(1));
    expect(api.calls(routes.getCheckoutInvoice).map((request) => request.url.searchParams.get('discountCode'))).toEqual([
      'NOPE',
      'spring25',
    ]);
    expect(api.calls(routes.fulfillSubscriptionInvoice).map((request) => request.params)).toEqual([
      { invoiceId: 'inv_jane_code' },
    ]);
  });

  it('shows a declined card’s message in an alert, keeps the form, and pays with a new nonce on the next try', async () => {
    // Prepare: the first card is declined, the second goes through
    let attempts = 0;
    const { page, user, api, tokenized, router } = renderCheckout({
      fulfill: () => {
        attempts += 1;
        return attempts === 1
          ? { status: 402, body: { message: DECLINED, code: 'PAYMENT_DECLINED', reason: 'processor_declined' } }
          : paid;
      },
    });
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act: the declined test card
    await user.click(within(form).getByRole('button', { name: /^4000 1111 1111 1115/ }));
    await user.click(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess: the bank's words in an alert beside the form; the card still filled in, and payable again
    expect(await within(form).findByRole('alert')).toHaveTextContent(DECLINED);
    expect(within(form).getByRole('textbox', { name: 'Card number' })).toHaveValue('4000 1111 1111 1115');
    expect(within(form).getByRole('button', { name: 'Pay $12.00' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/checkout');

    // Act: another card
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess: on to the subscription, each attempt with a nonce of its own; the card never went to our API
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
    expect(await screen.findByText('Welcome to Pro')).toBeInTheDocument();
    expect(tokenized).toEqual([
      {
        authorizationFingerprint: 'fingerprint-for-tests',
        creditCard: { number: '4000111111111115', expirationDate: '12/30', cvv: '123' },
      },
      {
        authorizationFingerprint: 'fingerprint-for-tests',
        creditCard: { number: '4111111111111111', expirationDate: '12/30', cvv: '123' },
      },
    ]);
    const fulfilled = api.calls(routes.fulfillSubscriptionInvoice);
    expect(fulfilled.map((request) => request.params)).toEqual([{ invoiceId: 'inv_jane_1' }, { invoiceId: 'inv_jane_1' }]);
    expect(fulfilled.map((request) => request.body)).toEqual([
      { paymentMethodNonce: 'tokencc_1_1115' },
      { paymentMethodNonce: 'tokencc_2_1111' },
    ]);
    expect(JSON.stringify(api.requests.map((request) => request.body))).not.toContain('4111111111111111');
  });

  it('pays once however quickly Pay is clicked twice, and keeps the button disabled while paying', async () => {
    // Prepare: the payment answers when the test says
    let answer: (reply: typeof paid) => void = () => undefined;
    const { page, user, api, tokenized } = renderCheckout({
      fulfill: () => new Promise((resolve) => (answer = resolve)),
    });
    const form = await page.findByRole('form', { name: 'Card details' });
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));

    // Act
    await user.dblClick(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess
    const paying = await within(form).findByRole('button', { name: 'Paying…' });
    expect(paying).toBeDisabled();
    await user.click(paying);
    await waitFor(() => expect(api.calls(routes.fulfillSubscriptionInvoice)).toHaveLength(1));
    answer(paid);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Subscription page' })).toBeInTheDocument());
    expect(tokenized).toHaveLength(1);
    expect(api.calls(routes.fulfillSubscriptionInvoice)).toHaveLength(1);
  });

  it('says the payment provider is not answering and nothing was charged on a 503', async () => {
    // Prepare
    const { page, user } = renderCheckout({
      fulfill: {
        status: 503,
        body: { message: 'The payment provider is not answering right now.', code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 30 },
      },
    });
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Or pay with a test nonce' }), 'fake-valid-visa-nonce');
    await user.click(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The payment provider is not answering right now. Nothing was charged: please try again in 30 seconds.',
    );
    expect(within(form).getByRole('button', { name: 'Pay $12.00' })).toBeEnabled();
  });

  it('marks the fields the local gateway refused, and sends nothing to our API', async () => {
    // Prepare
    const { page, user, api } = renderCheckout();
    stubLocalGateway(api, () => ({
      status: 422,
      body: { message: 'Check the card details.', fieldErrors: [{ field: 'expirationDate', message: 'This card has expired.' }] },
    }));
    const form = await page.findByRole('form', { name: 'Card details' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Card number' }), '4111111111111111');
    await user.type(within(form).getByRole('textbox', { name: 'Expiry date (MM/YY)' }), '01/20');
    await user.type(within(form).getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess
    expect(await within(form).findByRole('alert')).toHaveTextContent('Check the card details.');
    const expiry = within(form).getByRole('textbox', { name: 'Expiry date (MM/YY)' });
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    expect(expiry).toHaveAccessibleDescription('This card has expired.');
    expect(api.calls(routes.fulfillSubscriptionInvoice)).toHaveLength(0);
  });

  it('groups the card number and formats the expiry as they are typed, and sends the card as the gateway reads it', async () => {
    // Prepare
    const { page, user, tokenized } = renderCheckout({ fulfill: paid });
    const form = await page.findByRole('form', { name: 'Card details' });
    const number = within(form).getByRole('textbox', { name: 'Card number' });
    const expiry = within(form).getByRole('textbox', { name: 'Expiry date (MM/YY)' });
    const code = within(form).getByRole('textbox', { name: 'Security code' });

    // Act: an American Express number, then a Visa typed over it, the expiry as four digits
    await user.type(number, '378282246310005');
    const amex = (number as HTMLInputElement).value;
    await user.clear(number);
    await user.type(number, '4111111111111111');
    await user.type(expiry, '1228');
    await user.type(code, '1234');

    // Assess: grouped 4-6-5 and 4-4-4-4, the expiry as MM/YY, the code cut to a Visa's 3 digits
    expect(amex).toBe('3782 822463 10005');
    expect(number).toHaveValue('4111 1111 1111 1111');
    expect(expiry).toHaveValue('12/28');
    expect(code).toHaveValue('123');

    // Act
    await user.click(within(form).getByRole('button', { name: 'Pay $12.00' }));

    // Assess: the gateway gets the digits and MM/YY
    await waitFor(() => expect(tokenized).toHaveLength(1));
    expect(tokenized[0]).toMatchObject({ creditCard: { number: '4111111111111111', expirationDate: '12/28', cvv: '123' } });
  });

  it('keeps an expiry typed as MM/YYYY', async () => {
    // Prepare
    const { page, user } = renderCheckout();
    const form = await page.findByRole('form', { name: 'Card details' });
    const expiry = within(form).getByRole('textbox', { name: 'Expiry date (MM/YY)' });

    // Act
    await user.type(expiry, '12/2028');

    // Assess
    expect(expiry).toHaveValue('12/2028');
  });

  it('tells someone on Pro there is nothing to pay, with the way to their subscription', async () => {
    // Prepare
    const { page } = renderCheckout({ screenData: checkoutScreen({ payment: null, subscription: makeSubscription() }) });

    // Assess
    expect(await page.findByRole('heading', { name: 'You’re on Pro already' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'Go to your subscription' })).toHaveAttribute('href', '/subscription');
    expect(page.queryByRole('form', { name: 'Card details' })).not.toBeInTheDocument();
  });

  it('says plainly that an unknown price is not sold, with the way back to the plans, and asks the API nothing', async () => {
    // Prepare
    const { page, api } = renderCheckout({ path: '/checkout?price=pro-weekly' });

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'That is not one of our prices' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/upgrades');
    expect(api.calls(routes.showCheckoutScreen)).toHaveLength(0);
  });

  it('asks a visitor to log in first', async () => {
    // Prepare
    const { page, api, user } = renderCheckout({ user: null });

    // Assess: the login modal opens over the page
    expect(await screen.findByRole('dialog', { name: /^Log in to / })).toBeInTheDocument();

    // Act
    await user.keyboard('{Escape}');

    // Assess: the page behind it says what to do
    expect(await page.findByRole('heading', { level: 1, name: 'Log in to upgrade to Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls(routes.showCheckoutScreen)).toHaveLength(0);
  });
  it('offers a canceled subscriber to resume Pro, with its renewal date and nothing to pay today, never "nothing to pay" as to someone on Pro', async () => {
    // Prepare
    const canceled = canceledWithPaidTime();
    const resumed = makeSubscription({ id: 'r_resumed', status: 'Pending', nextBillingDate: '2026-12-26' });
    const { page, user, api } = renderCheckout({
      screenData: checkoutScreen({ payment: null, subscription: canceled }),
      resume: { body: { subscription: resumed } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'Your Pro plan is canceled' })).toBeInTheDocument();
    expect(page.queryByRole('heading', { name: 'You’re on Pro already' })).not.toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveTextContent(/nothing to pay/i);
    expect(page.getByText(/it renews on 26 December 2026 at \$12\.00/)).toBeInTheDocument();
    expect(page.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();

    // Act
    await user.click(page.getByRole('button', { name: 'Resume Pro' }));

    // Assess
    expect(await screen.findByText('Pro is resumed: it renews on 26 December 2026.')).toBeInTheDocument();
    expect(api.calls(routes.resumeSubscription).map((request) => request.params)).toEqual([
      { subscriptionProductId: 'sub_jane_1' },
    ]);
    expect(api.calls(routes.fulfillSubscriptionInvoice)).toHaveLength(0);
  });

  it('offers the normal checkout once a canceled plan’s paid time is over', async () => {
    // Prepare
    const ended = makeSubscription({ status: 'Canceled', nextBillingDate: null, givesPro: false, resumeRenewsOn: null });
    const { page } = renderCheckout({ screenData: checkoutScreen({ subscription: ended }) });

    // Assess
    expect(await page.findByRole('button', { name: 'Pay $12.00' })).toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Resume Pro' })).not.toBeInTheDocument();
  });
});
