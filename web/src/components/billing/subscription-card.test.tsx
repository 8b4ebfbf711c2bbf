import { useMutation } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentProps, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionStatus } from '@shared/schemas/subscriptions';
import { toast } from '../../lib/toast';
import { renderWithProviders } from '../../test/render-shell';
import { Button } from '../button';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { SubscriptionCard, useFocusCardAfterDialog } from './subscription-card';

type CardProps = ComponentProps<typeof SubscriptionCard>;

function renderCard(overrides: Partial<CardProps> = {}) {
  const props: CardProps = {
    subscriptionId: 'sub_1',
    title: 'Ink club, Ink of the month',
    byline: 'From The Pen Shop',
    status: 'Active',
    price: '$10.00 every month',
    nextCharge: '$15.00 on 1 December 2026',
    paymentMethod: { cardType: 'Visa', last4: '1111', expirationDate: '12/2030' },
    onUpdateCard: vi.fn(),
    onCancel: vi.fn(),
    ...overrides,
  };
  renderWithProviders(<SubscriptionCard {...props} />);
  return { props, user: userEvent.setup() };
}

afterEach(() => {
  act(() => toast.dismiss());
});

describe('SubscriptionCard', () => {
  it('shows the status, price, next charge and card, with the feature’s own facts and area', () => {
    // Act
    renderCard({ facts: [{ term: 'Plan', value: 'Pro' }], children: <p>Up to 20 GB a transfer</p> });

    // Assess
    const card = screen.getByRole('article', { name: 'Ink club, Ink of the month' });
    expect(card).toHaveTextContent('From The Pen Shop');
    expect(card).toHaveTextContent('PlanProStatusActivePrice$10.00 every monthNext charge$15.00 on 1 December 2026');
    expect(card).toHaveTextContent('Up to 20 GB a transfer');
    expect(within(card).getByRole('region', { name: 'Card' })).toHaveTextContent('Visa ending 1111, expires 12/2030');
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers to update the card and to cancel while it runs, beside the feature’s own actions', async () => {
    // Prepare
    const addOn = vi.fn();
    const { props, user } = renderCard({ actions: <Button onClick={addOn}>Add an add-on</Button> });
    const card = screen.getByRole('article', { name: 'Ink club, Ink of the month' });

    // Act
    await user.click(within(card).getByRole('button', { name: 'Update card' }));
    await user.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(card).getByRole('button', { name: 'Add an add-on' }));

    // Assess
    expect(props.onUpdateCard).toHaveBeenCalledTimes(1);
    expect(props.onCancel).toHaveBeenCalledTimes(1);
    expect(addOn).toHaveBeenCalledTimes(1);
  });

  it('says first, in an alert, that the last payment failed', () => {
    // Act
    renderCard({ status: 'Past Due', alert: 'The last payment failed. Update your card to pay the $15.00 owing.' });

    // Assess
    const card = screen.getByRole('article', { name: 'Ink club, Ink of the month' });
    expect(within(card).getByRole('alert')).toHaveTextContent(
      'The last payment failed. Update your card to pay the $15.00 owing.',
    );
    expect(card).toHaveTextContent('StatusPast due');
    expect(within(card).getByRole('button', { name: 'Update card' })).toBeInTheDocument();
  });

  it.each<SubscriptionStatus>(['Canceled', 'Expired'])('offers nothing to do once %s', (status) => {
    // Act
    renderCard({ status, actions: <Button>Add an add-on</Button> });

    // Assess
    const card = screen.getByRole('article', { name: 'Ink club, Ink of the month' });
    expect(card).toHaveTextContent(`Status${status}`);
    expect(within(card).getByRole('region', { name: 'Card' })).toHaveTextContent('Visa ending 1111, expires 12/2030');
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('is a region with a level-2 title as the page’s one plan', () => {
    // Act
    renderCard({ as: 'section', headingLevel: 2, title: 'Your plan', byline: undefined });

    // Assess
    const plan = screen.getByRole('region', { name: 'Your plan' });
    expect(within(plan).getByRole('heading', { level: 2, name: 'Your plan' })).toBeInTheDocument();
    expect(within(plan).getByRole('heading', { level: 3, name: 'Card' })).toBeInTheDocument();
  });
});

describe('useFocusCardAfterDialog', () => {
  /** A page with one card whose Cancel opens the shared dialog; canceling ends the subscription. */
  function Page() {
    const [status, setStatus] = useState<SubscriptionStatus>('Active');
    const [open, setOpen] = useState(false);
    const cancel = useMutation({ mutationFn: async () => 'canceled', onSuccess: () => setStatus('Canceled') });
    useFocusCardAfterDialog(open ? 'sub_1' : null);
    return (
      <>
        <SubscriptionCard
          subscriptionId="sub_1"
          title="Ink club, Ink of the month"
          status={status}
          price="$10.00 every month"
          nextCharge={status === 'Canceled' ? 'None: canceled' : '$10.00 on 1 December 2026'}
          paymentMethod={{ cardType: 'Visa', last4: '1111', expirationDate: '12/2030' }}
          onUpdateCard={() => {}}
          onCancel={() => setOpen(true)}
        />
        {open ? (
          <CancelSubscriptionDialog cancel={cancel} canceledMessage={() => 'Canceled'} onClose={() => setOpen(false)} />
        ) : null}
      </>
    );
  }

  it('gives focus back to the button that opened the dialog, or to the card’s title once that button is gone', async () => {
    // Prepare
    renderWithProviders(<Page />);
    const user = userEvent.setup();
    const card = screen.getByRole('article', { name: 'Ink club, Ink of the month' });

    // Act: open, and keep the subscription
    await user.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep subscription' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(card).getByRole('button', { name: 'Cancel subscription' })).toHaveFocus();

    // Act: cancel, which takes the button away
    await user.click(within(card).getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(card).toHaveTextContent('StatusCanceled');
    await waitFor(() => expect(within(card).getByRole('heading', { name: 'Ink club, Ink of the month' })).toHaveFocus());
  });
});
