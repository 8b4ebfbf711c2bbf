import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { SubscriptionScreen } from '../api/subscription-keys';
import {
  canceledWithPaidTime,
  localPayment,
  makePayment,
  makeSubscription,
  pastDue,
  stubLocalGateway,
  subscriptionScreen,
} from '../test-utils/fixtures';
import { SubscriptionPage } from './subscription-page';

function renderSubscription(
  screenData: () => SubscriptionScreen,
  answers: {
    cancel?: StubAnswer<typeof routes.cancelSubscription>;
    update?: StubAnswer<typeof routes.updateSubscriptionPaymentMethod>;
    resume?: StubAnswer<typeof routes.resumeSubscription>;
  } = {},
) {
  const api = stubRoutes(
    stubRoute(routes.showSubscriptionScreen, () => ({ body: screenData() })),
    stubRoute(routes.cancelSubscription, answers.cancel ?? { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } }),
    stubRoute(routes.getPaymentClientToken, { body: localPayment }),
    stubRoute(routes.resumeSubscription, answers.resume ?? { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } }),
    stubRoute(
      routes.updateSubscriptionPaymentMethod,
      answers.update ?? { status: 500, body: { message: 'Not expected', code: 'INTERNAL' } },
    ),
    stubRoute(routes.getMe, { body: jane }),
  );
  const tokenized = stubLocalGateway(api);
  const rendered = renderShell({
    path: '/subscription',
    user: jane,
    pages: [{ path: 'subscription', Component: SubscriptionPage }],
  });
  return { ...rendered, api, tokenized, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SubscriptionPage', () => {
  it('shows the plan, its next charge, the card on file and the payments', async () => {
    // Prepare
    const { page } = renderSubscription(() =>
      subscriptionScreen({
        payments: [
          makePayment({
            transactionId: 'txn_2',
            chargedAt: '2026-12-26T10:00:00.000Z',
            card: { cardType: 'Visa', last4: '1111' },
          }),
          makePayment({ transactionId: 'txn_1', chargedAt: '2026-11-26T10:00:00.000Z', card: null }),
        ],
      }),
    );

    // Assess
    const plan = await page.findByRole('region', { name: 'Your plan' });
    expect(plan).toHaveTextContent('PlanPro');
    expect(plan).toHaveTextContent('StatusActive');
    expect(plan).toHaveTextContent('Price$12.00 a month');
    expect(plan).toHaveTextContent('Next charge$12.00 on 26 December 2026');
    expect(page.getByRole('region', { name: 'Card' })).toHaveTextContent('Visa ending 1111, expires 12/2030');
    expect(page.queryByRole('alert')).not.toBeInTheDocument();
    const rows = within(page.getByRole('table', { name: 'Payments' })).getAllByRole('row');
    expect(
      rows.map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [],
      ['26 December 2026', 'Transfer Pro, monthly', '$12.00', 'Visa ending 1111'],
      ['26 November 2026', 'Transfer Pro, monthly', '$12.00', '—'],
    ]);
  });

  it('shows a refunded payment with each refund: how much, when and why', async () => {
    // Prepare
    const { page } = renderSubscription(() =>
      subscriptionScreen({
        payments: [
          makePayment({
            transactionId: 'txn_1',
            refunds: [
              {
                amount: { amountMinor: 400, currency: 'USD' },
                operation: 'refund',
                reason: 'Outage last week',
                refundedAt: '2026-11-28T10:00:00.000Z',
              },
            ],
          }),
        ],
      }),
    );

    // Assess
    const table = await page.findByRole('table', { name: 'Payments' });
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('Transfer Pro, monthlyRefunded $4.00 on 28 November 2026: Outage last week');
    expect(cells[2]).toHaveTextContent('$12.00');
  });

  it('warns in an alert when the last payment failed, with the date to update the card by', async () => {
    // Prepare
    const { page } = renderSubscription(() => subscriptionScreen({ subscription: pastDue() }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent(
      'Your last payment failed. Update your card by 3 January 2027 to keep Pro.',
    );
    expect(page.getByRole('region', { name: 'Your plan' })).toHaveTextContent('StatusPast due');
    expect(page.getByRole('region', { name: 'Your plan' })).toHaveTextContent('Next charge$12.00 owing');
  });

  it('keeps a past-due subscription whose grace ran out manageable: Pro is paused and a new card brings it back', async () => {
    // Prepare
    const { page } = renderSubscription(() =>
      subscriptionScreen({ currentPlan: PLAN_LIMITS.free, subscription: pastDue({ givesPro: false }) }),
    );

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent(
      'Your last payment failed. Pro is paused until a payment goes through: update your card to get it back at once.',
    );
    expect(page.getByRole('region', { name: 'Your plan' })).toHaveTextContent('PlanFree');
    expect(page.getByRole('button', { name: 'Update card' })).toBeInTheDocument();
  });

  it('cancels only once confirmed, then says Pro stays until the paid-through date', async () => {
    // Prepare: the page's answer follows the cancellation
    let subscription = makeSubscription();
    const canceled = makeSubscription({
      status: 'Canceled',
      nextBillingDate: null,
      canceledAt: '2026-11-27T10:00:00.000Z',
      proEndsAt: '2026-12-26T00:00:00.000Z',
    });
    const { page, user, api } = renderSubscription(() => subscriptionScreen({ subscription }), {
      cancel: () => {
        subscription = canceled;
        return { body: { subscription: canceled } };
      },
    });

    // Act: open the confirmation, and keep the subscription
    await user.click(await page.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });

    // Assess
    expect(dialog).toHaveAccessibleDescription(
      'Nothing more will be charged. Pro stays until the end of the period you have paid for: you keep it until 25 December 2026, then your account goes back to Free.',
    );

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(routes.cancelSubscription)).toHaveLength(0);

    // Act: cancel for real
    await user.click(page.getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));

    // Assess: canceled, Pro until the last day paid for, nothing left to cancel or to put a card on;
    // focus on the plan, the button that opened the dialog gone
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const plan = page.getByRole('region', { name: 'Your plan' });
    await waitFor(() => expect(within(plan).getByRole('heading', { name: 'Your plan' })).toHaveFocus());
    expect(plan).toHaveTextContent('PlanPro');
    expect(plan).toHaveTextContent('StatusCanceled');
    expect(plan).toHaveTextContent('Next chargeNone: Pro until 25 December 2026');
    expect(page.queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
    expect(page.queryByRole('button', { name: 'Update card' })).not.toBeInTheDocument();
    expect(api.calls(routes.cancelSubscription).map((request) => request.params)).toEqual([
      { subscriptionProductId: 'sub_jane_1' },
    ]);
    expect(await screen.findByText('Your subscription is canceled. You keep Pro until 25 December 2026.')).toBeInTheDocument();
  });

  it('shows a declined new card in the dialog, and closes it once a card goes through', async () => {
    // Prepare: past due; the first new card is declined too, the second pays what is owed
    let subscription = pastDue();
    let attempts = 0;
    const { page, user, api } = renderSubscription(() => subscriptionScreen({ subscription }), {
      update: () => {
        attempts += 1;
        if (attempts === 1) {
          return {
            status: 402,
            body: { message: 'Your new card is saved, but it was declined too: Do Not Honor.', code: 'PAYMENT_DECLINED' },
          };
        }
        subscription = makeSubscription();
        return { body: { subscription } };
      },
    });

    // Act
    await user.click(await page.findByRole('button', { name: 'Update card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update your card' });
    const form = await within(dialog).findByRole('form', { name: 'New card' });
    await user.click(within(form).getByRole('button', { name: /^4000 1111 1111 1115/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card and pay $12.00' }));

    // Assess
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Your new card is saved, but it was declined too: Do Not Honor.',
    );

    // Act
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card and pay $12.00' }));

    // Assess: active again, no alert
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(page.getByRole('region', { name: 'Your plan' })).toHaveTextContent('StatusActive'));
    expect(page.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls(routes.updateSubscriptionPaymentMethod)).toHaveLength(2);
  });

  it('tells someone on Free so, with the way to Pro', async () => {
    // Prepare
    const { page } = renderSubscription(() =>
      subscriptionScreen({ currentPlan: PLAN_LIMITS.free, subscription: null, payments: [] }),
    );

    // Assess
    const free = await page.findByRole('region', { name: 'You’re on Free' });
    expect(free).toHaveTextContent('Largest transfer2 GB');
    expect(within(free).getByRole('link', { name: 'See what Pro gives' })).toHaveAttribute('href', '/upgrades');
    expect(page.getByText('No payments yet.')).toBeInTheDocument();
  });
  it('offers to resume a canceled plan while it is paid, charging nothing, and shows it active again with its renewal date', async () => {
    // Prepare: canceled with paid time left; resuming answers the subscription that renews
    let subscription = canceledWithPaidTime();
    const resumed = makeSubscription({ id: 'r_resumed', status: 'Pending', nextBillingDate: '2026-12-26' });
    const { page, user, api } = renderSubscription(() => subscriptionScreen({ subscription }), {
      resume: () => {
        subscription = resumed;
        return { body: { subscription: resumed } };
      },
    });
    const plan = await page.findByRole('region', { name: 'Your plan' });
    expect(plan).toHaveTextContent('Resume Pro and nothing is charged today: it renews on 26 December 2026 at $12.00');
    expect(plan).not.toHaveTextContent(/nothing to pay/i);

    // Act
    await user.click(within(plan).getByRole('button', { name: 'Resume Pro' }));

    // Assess: active again, renewing on the old date; the offer gone
    expect(await screen.findByText('Pro is resumed: it renews on 26 December 2026.')).toBeInTheDocument();
    const after = page.getByRole('region', { name: 'Your plan' });
    await waitFor(() => expect(after).toHaveTextContent('StatusActive'));
    expect(after).toHaveTextContent('Next charge$12.00 on 26 December 2026');
    expect(within(after).queryByRole('button', { name: 'Resume Pro' })).not.toBeInTheDocument();
    expect(api.calls(routes.resumeSubscription).map((request) => request.params)).toEqual([
      { subscriptionProductId: 'sub_jane_1' },
    ]);
  });

  it('says why Pro could not be resumed, and offers nothing once the paid time is over', async () => {
    // Prepare
    const subscription = makeSubscription({
      status: 'Canceled',
      nextBillingDate: null,
      canceledAt: '2026-11-27T10:00:00.000Z',
      resumeRenewsOn: '2026-12-26',
    });
    const { page, user } = renderSubscription(() => subscriptionScreen({ subscription }), {
      resume: {
        status: 409,
        body: {
          message: 'The time you paid for has ended, so this plan can no longer be resumed: subscribe again at checkout.',
          code: 'CONFLICT',
        },
      },
    });

    // Act
    await user.click(await page.findByRole('button', { name: 'Resume Pro' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('subscribe again at checkout');
  });
});
