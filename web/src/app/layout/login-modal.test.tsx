import '../../test/dom-polyfills';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LoginModalProvider, useLoginModal } from '../../lib/login-modal';
import { LoginModal } from './login-modal';

function OpenOnMount({ children }: { children: ReactNode }) {
  const { open } = useLoginModal();
  useEffect(open, [open]);
  return children;
}

function OpenButton() {
  const { open } = useLoginModal();
  return <button onClick={open}>Open login</button>;
}

function renderModal(onSendEmail = vi.fn((_email: string) => Promise.resolve())) {
  render(
    <LoginModalProvider>
      <OpenButton />
      <OpenOnMount>
        <LoginModal onSendEmail={onSendEmail} />
      </OpenOnMount>
    </LoginModalProvider>,
  );
  return { onSendEmail, user: userEvent.setup() };
}

async function goToEmailView(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Continue with email' }));
  return screen.getByRole('dialog', { name: 'Log in with email' });
}

describe('LoginModal', () => {
  it('first offers Google or email; email leads to an email input and a Send button', async () => {
    // Prepare
    const { user } = renderModal();
    const first = screen.getByRole('dialog', { name: 'Log in to TopPubs' });
    expect(within(first).getByRole('button', { name: 'Continue with Google' })).toBeEnabled();

    // Act
    const dialog = await goToEmailView(user);

    // Assess
    const input = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Continue with email' })).not.toBeInTheDocument();
  });

  it("sends the link and shows 'Login link sent to {email}' with Ok and Resend link", async () => {
    // Prepare
    const { user, onSendEmail } = renderModal();
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    // Assess
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });
    expect(onSendEmail).toHaveBeenCalledExactlyOnceWith('jane@example.com');
    expect(within(sent).getByRole('button', { name: 'Ok' })).toBeInTheDocument();
    expect(within(sent).getByRole('button', { name: 'Resend link' })).toBeInTheDocument();
    expect(within(sent).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('Resend link sends again to the same address and says so', async () => {
    // Prepare
    const { user, onSendEmail } = renderModal();
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });

    // Act
    await user.click(within(sent).getByRole('button', { name: 'Resend link' }));

    // Assess
    expect(onSendEmail).toHaveBeenCalledTimes(2);
    expect(onSendEmail).toHaveBeenLastCalledWith('jane@example.com');
    expect(within(sent).getByRole('status')).toHaveTextContent('We sent a new link.');
  });

  it('does not send an address that is not an email', async () => {
    // Prepare
    const { user, onSendEmail } = renderModal();
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    // Assess
    expect(onSendEmail).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Log in with email' })).toBeInTheDocument();
  });

  it('shows the sent view even when sending fails (failures are only tracked)', async () => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user } = renderModal(vi.fn(() => Promise.reject(new Error('down'))));
    const dialog = await goToEmailView(user);

    // Act
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('Ok closes the modal, and it reopens on the first view', async () => {
    // Prepare
    const { user } = renderModal();
    const dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');

    // Act
    await user.click(await screen.findByRole('button', { name: 'Ok' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Open login' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });

  it('All login options goes back to the first view from the email view and from the sent view', async () => {
    // Prepare
    const { user } = renderModal();
    let dialog = await goToEmailView(user);

    // Act
    await user.click(within(dialog).getByRole('button', { name: 'All login options' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();

    // Prepare
    dialog = await goToEmailView(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'jane@example.com{Enter}');
    const sent = await screen.findByRole('dialog', { name: 'Login link sent to jane@example.com' });

    // Act
    await user.click(within(sent).getByRole('button', { name: 'All login options' }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });

  it('closes with Escape and with the Close button, over an overlay at z-index 900', async () => {
    // Prepare
    const { user } = renderModal();
    expect(screen.getByTestId('login-overlay')).toHaveStyle({ zIndex: '900' });

    // Act
    await user.keyboard('{Escape}');

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('button', { name: 'Open login' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));

    // Assess
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
