import { useMutation } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { renderWithProviders } from '../../test/render-shell';
import { Button } from '../button';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';

interface Canceled {
  paidThrough: string;
}

/** The button that opens the dialog, as on a page; `cancelFn` is what the feature's mutation calls. */
function renderCancel(cancelFn: () => Promise<Canceled>, { subject }: { subject?: string } = {}) {
  function CancelDialog({ onClose }: { onClose: () => void }) {
    const cancel = useMutation({ mutationFn: cancelFn });
    return (
      <CancelSubscriptionDialog
        subject={subject}
        consequence="You have paid through 30 November 2026."
        cancel={cancel}
        canceledMessage={({ paidThrough }) => `Your subscription is canceled. It is yours until ${paidThrough}.`}
        onClose={onClose}
      />
    );
  }
  function Page() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Cancel subscription</Button>
        {open ? <CancelDialog onClose={() => setOpen(false)} /> : null}
      </>
    );
  }
  renderWithProviders(<Page />);
  const user = userEvent.setup();
  const open = async () => {
    await user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    return screen.findByRole('dialog', { name: 'Cancel your subscription?' });
  };
  return { user, open };
}

afterEach(() => {
  act(() => toast.dismiss());
});

describe('CancelSubscriptionDialog', () => {
  it('says what canceling means, and changes nothing when the subscription is kept', async () => {
    // Prepare
    const cancelFn = vi.fn(async () => ({ paidThrough: '30 November 2026' }));
    const { user, open } = renderCancel(cancelFn, { subject: 'Ink club, Ink of the month' });

    // Act
    const dialog = await open();

    // Assess
    expect(dialog).toHaveAccessibleDescription(
      'Nothing more will be charged for Ink club, Ink of the month. You have paid through 30 November 2026.',
    );

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));

    // Assess: nothing sent, and focus back on the button that opened it
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toHaveFocus();
    expect(cancelFn).not.toHaveBeenCalled();
  });

  it('names nothing where there is one subscription only', async () => {
    // Prepare
    const { open } = renderCancel(async () => ({ paidThrough: '30 November 2026' }));

    // Act
    const dialog = await open();

    // Assess
    expect(dialog).toHaveAccessibleDescription('Nothing more will be charged. You have paid through 30 November 2026.');
  });

  it('says it is canceling while it waits, then closes and says so from the answer', async () => {
    // Prepare
    let answer: (canceled: Canceled) => void = () => {};
    const cancelFn = vi.fn(() => new Promise<Canceled>((resolve) => (answer = resolve)));
    const { user, open } = renderCancel(cancelFn);
    const dialog = await open();

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    // Assess: busy, and not to be pressed twice
    const busy = within(dialog).getByRole('button', { name: 'Canceling…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');

    // Act
    act(() => answer({ paidThrough: '30 November 2026' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Your subscription is canceled. It is yours until 30 November 2026.')).toBeInTheDocument();
    expect(cancelFn).toHaveBeenCalledTimes(1);
  });

  it('stays open with why canceling failed, and cancels when tried again', async () => {
    // Prepare: refused with a reason, then with none, then canceled
    const cancelFn = vi
      .fn<() => Promise<Canceled>>()
      .mockRejectedValueOnce(new ApiError(503, 'Service Unavailable', { message: 'The payment provider is not answering.' }))
      .mockRejectedValueOnce(new Error(''))
      .mockResolvedValueOnce({ paidThrough: '30 November 2026' });
    const { user, open } = renderCancel(cancelFn);
    const dialog = await open();

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    // Assess
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The payment provider is not answering.');

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    // Assess
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Canceling failed. Try again.'));

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Your subscription is canceled. It is yours until 30 November 2026.')).toBeInTheDocument();
    expect(cancelFn).toHaveBeenCalledTimes(3);
  });
});
