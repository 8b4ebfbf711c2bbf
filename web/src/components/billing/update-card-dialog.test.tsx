import { useMutation, useQuery } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Money } from '@shared/payments/money';
import { encodeLocalClientToken, type LocalTokenizeRequest } from '@shared/payments/local-gateway';
import type { PaymentClient } from '@shared/schemas/subscriptions';
import { ApiError } from '../../lib/api-client';
import type { PaymentMethodNonce } from '../../lib/payments/payment-method-nonce';
import { toast } from '../../lib/toast';
import { renderWithProviders } from '../../test/render-shell';
import { Button } from '../button';
import { UpdateCardDialog } from './update-card-dialog';

/** Where the local card form sends the card: the local gateway of the payment account. */
const TOKENIZE_URL = 'http://127.0.0.1:4599/merchants/billing-merchant/client_api/v1/payment_methods/credit_cards';

const localClient: PaymentClient = {
  environment: 'local',
  clientToken: encodeLocalClientToken({
    version: 1,
    environment: 'local',
    merchantId: 'billing-merchant',
    tokenizeUrl: TOKENIZE_URL,
    authorizationFingerprint: 'billing-fingerprint',
    expiresAt: '2099-01-01T00:00:00.000Z',
  }),
};

const DECLINED = new ApiError(402, 'Payment Required', {
  message: 'Your new card is saved, but it was declined too: Do Not Honor.',
  code: 'PAYMENT_DECLINED',
});

/** The local gateway: each card becomes a nonce naming its last four digits. */
function stubLocalGateway() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input) !== TOKENIZE_URL) throw new Error(`Not expected: ${String(input)}`);
      const request = JSON.parse(String(init.body)) as LocalTokenizeRequest;
      const last4 = 'creditCard' in request ? request.creditCard.number.slice(-4) : '1881';
      const body = { nonce: `tokencc_${last4}`, details: { cardType: 'Visa', lastFour: last4 } };
      return new Response(JSON.stringify(body), { status: 201, headers: { 'content-type': 'application/json' } });
    }),
  );
}

/**
 * The button that opens the dialog, as on a page. `clientFn` answers the query for the card
 * form's client token, `updateFn` is what the feature's mutation calls.
 */
function renderUpdateCard({
  subject,
  owing = null,
  clientFn = async () => localClient,
  updateFn,
}: {
  subject?: string;
  owing?: Money | null;
  clientFn?: () => Promise<PaymentClient>;
  updateFn: (method: PaymentMethodNonce) => Promise<unknown>;
}) {
  function UpdateCard({ onClose }: { onClose: () => void }) {
    const client = useQuery({ queryKey: ['client-token'], queryFn: clientFn });
    const update = useMutation({ mutationFn: updateFn });
    return <UpdateCardDialog subject={subject} owing={owing} client={client} update={update} onClose={onClose} />;
  }
  function Page() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Update card</Button>
        {open ? <UpdateCard onClose={() => setOpen(false)} /> : null}
      </>
    );
  }
  renderWithProviders(<Page />);
  const user = userEvent.setup();
  const open = async () => {
    await user.click(screen.getByRole('button', { name: 'Update card' }));
    return screen.findByRole('dialog', { name: 'Update your card' });
  };
  return { user, open };
}

beforeEach(() => {
  stubLocalGateway();
});

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('UpdateCardDialog', () => {
  it('loads the card form, saves the new card and says so', async () => {
    // Prepare: the client token comes when the test says
    let answer: (client: PaymentClient) => void = () => {};
    const updateFn = vi.fn(async (_method: PaymentMethodNonce) => true);
    const { user, open } = renderUpdateCard({
      clientFn: () => new Promise<PaymentClient>((resolve) => (answer = resolve)),
      updateFn,
    });

    // Act
    const dialog = await open();

    // Assess
    expect(dialog).toHaveAccessibleDescription('Every charge goes to the new card from now on.');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the card form');

    // Act
    act(() => answer(localClient));
    const form = await within(dialog).findByRole('form', { name: 'New card' });
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Your card is updated')).toBeInTheDocument();
    expect(updateFn.mock.calls.map(([method]) => method)).toEqual([{ nonce: 'tokencc_1111' }]);
  });

  it('charges what a past-due one owes with the new card: a decline shows in the form, and another card can be tried', async () => {
    // Prepare: the first card is declined; the second goes through when the test says
    let paid: (result: unknown) => void = () => {};
    const updateFn = vi
      .fn<(method: PaymentMethodNonce) => Promise<unknown>>()
      .mockRejectedValueOnce(DECLINED)
      .mockImplementationOnce(() => new Promise((resolve) => (paid = resolve)));
    const { user, open } = renderUpdateCard({
      subject: 'Ink club, Ink of the month',
      owing: { amountMinor: 1500, currency: 'USD' },
      updateFn,
    });

    // Act
    const dialog = await open();
    const form = await within(dialog).findByRole('form', { name: 'New card' });

    // Assess
    expect(dialog).toHaveAccessibleDescription(
      'Every charge for Ink club, Ink of the month goes to the new card from now on, starting with the $15.00 owing, charged at once.',
    );

    // Act
    await user.click(within(form).getByRole('button', { name: /^4000 1111 1111 1115/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card and pay $15.00' }));

    // Assess: the decline, in the form, which stays
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Your new card is saved, but it was declined too: Do Not Honor.',
    );
    expect(screen.getByRole('dialog', { name: 'Update your card' })).toBeInTheDocument();

    // Act
    await user.click(within(form).getByRole('button', { name: /^4111 1111 1111 1111/ }));
    await user.click(within(form).getByRole('button', { name: 'Save card and pay $15.00' }));

    // Assess: busy while it is charged
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Saving…' })).toBeDisabled());

    // Act
    act(() => paid(true));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Your card is updated and what you owed is paid')).toBeInTheDocument();
    expect(updateFn.mock.calls.map(([method]) => method)).toEqual([{ nonce: 'tokencc_1115' }, { nonce: 'tokencc_1111' }]);
  });

  it('says when the card form cannot be loaded, and loads it on Retry', async () => {
    // Prepare
    const clientFn = vi
      .fn<() => Promise<PaymentClient>>()
      .mockRejectedValueOnce(new ApiError(503, 'Service Unavailable', { message: 'The payment provider is not answering.' }))
      .mockResolvedValueOnce(localClient);
    const { user, open } = renderUpdateCard({ clientFn, updateFn: async () => true });

    // Act
    const dialog = await open();

    // Assess
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The card form could not be loaded: The payment provider is not answering.',
    );

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));

    // Assess
    expect(await within(dialog).findByRole('form', { name: 'New card' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });
});
