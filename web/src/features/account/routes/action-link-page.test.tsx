import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../lib/current-user';
import { jane, renderShell } from '../../../test/render-shell';
import { routes } from '@shared/routes';
import { type StubReply, stubRoute } from '../../../test/stub-routes';
import { stubApi } from '../test-utils/stub-api';
import { ActionLinkPage } from './action-link-page';

const TOKEN = 'act_0123456789abcdefghijklmnop';

interface Options {
  type?: string;
  user?: CurrentUser | null;
  action?: StubReply<typeof routes.completeAction>;
  resend?: StubReply<typeof routes.sendVerificationEmail>;
}

/** The action page in the shell; the action, resend and current-user endpoints answer as told. */
function renderAction({
  type = 'verify-email',
  user = null,
  action = { body: { type, done: true } },
  resend = { body: { sent: true } },
}: Options = {}) {
  const api = stubApi(
    stubRoute(routes.completeAction, action, { authToken: TOKEN, type }),
    stubRoute(routes.sendVerificationEmail, resend),
    stubRoute(routes.getMe, user ? { body: user } : { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
  );
  const shell = renderShell({
    path: `/authed/${TOKEN}/action/${type}`,
    user,
    pages: [{ path: 'authed/:authToken/action/:type', Component: ActionLinkPage }],
  });
  return {
    ...shell,
    api,
    actions: () => api.calls(routes.completeAction, { authToken: TOKEN, type }),
    resends: () => api.calls(routes.sendVerificationEmail),
    user: userEvent.setup(),
  };
}

function page() {
  return within(screen.getByRole('main'));
}

afterEach(() => {
  configure({ reactStrictMode: false });
  vi.unstubAllGlobals();
});

describe('ActionLinkPage', () => {
  it('completes the action exactly once on arrival, even in strict mode, and says the email is verified', async () => {
    // Prepare: React runs effects twice in strict mode; the link must still be spent once
    configure({ reactStrictMode: true });

    // Act
    const { actions } = renderAction({ user: jane });

    // Assess
    expect(await page().findByRole('heading', { level: 1, name: 'Your email address is verified' })).toBeInTheDocument();
    expect(actions()).toHaveLength(1);
    expect(actions()[0]?.method).toBe('GET');
    expect(page().getByRole('link', { name: 'Back to the rankings' })).toHaveAttribute('href', '/');
  });

  it('asks for the current user again after verifying', async () => {
    // Prepare: signed in, so the login's hint cookie is there
    document.cookie = 'ssoh=1; Path=/';
    const { api } = renderAction({ user: jane });

    // Act
    await page().findByRole('heading', { level: 1, name: 'Your email address is verified' });

    // Assess
    await vi.waitFor(() => expect(api.calls(routes.getMe)).toHaveLength(1));
  });

  it('explains a used verification link: a mail scanner may have opened it first', async () => {
    // Prepare
    const { actions } = renderAction({
      user: jane,
      action: { status: 400, body: { message: 'This link was already used.', code: 'ACTION_LINK_USED' } },
    });

    // Act
    const heading = await page().findByRole('heading', { level: 1, name: 'Link already used' });

    // Assess
    expect(heading.parentElement).toHaveTextContent(
      'This link was already used. If you opened it before, your email is already verified.',
    );
    expect(page().queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
    expect(actions()).toHaveLength(1);
  });

  it("shows the server's message for an expired link and sends a new one on request", async () => {
    // Prepare
    const { user, resends } = renderAction({
      user: jane,
      action: { status: 400, body: { message: 'This link has expired.', code: 'ACTION_LINK_EXPIRED' } },
    });
    const alert = await page().findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('This link has expired.');

    // Act
    await user.click(within(alert).getByRole('button', { name: 'Send a new verification link' }));

    // Assess
    expect(await page().findByText('We sent a new verification link. Check your email.')).toBeInTheDocument();
    expect(resends()).toHaveLength(1);
    expect(resends()[0]?.method).toBe('PUT');
    expect(page().queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
  });

  it('says the address is verified already when the resend answers 409', async () => {
    // Prepare
    const { user } = renderAction({
      user: jane,
      action: { status: 400, body: { message: 'This link is out of date.', code: 'ACTION_LINK_STALE' } },
      resend: { status: 409, body: { message: 'Already verified', code: 'CONFLICT' } },
    });

    // Act
    await user.click(await page().findByRole('button', { name: 'Send a new verification link' }));

    // Assess
    expect(await page().findByText('Your email address is already verified.')).toBeInTheDocument();
    expect(page().queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
  });

  it("shows the server's cooldown message when the resend answers 429", async () => {
    // Prepare
    const { user } = renderAction({
      user: jane,
      action: { status: 400, body: { message: 'This link is not valid.', code: 'INVALID_ACTION_LINK' } },
      resend: { status: 429, body: { message: 'Wait a minute before asking again.', code: 'RATE_LIMITED' } },
    });

    // Act
    await user.click(await page().findByRole('button', { name: 'Send a new verification link' }));

    // Assess
    expect(await page().findByText('Wait a minute before asking again.')).toBeInTheDocument();
  });

  it('offers no new link to a signed-out visitor', async () => {
    // Prepare
    renderAction({ action: { status: 400, body: { message: 'This link has expired.', code: 'ACTION_LINK_EXPIRED' } } });

    // Act
    const alert = await page().findByRole('alert');

    // Assess
    expect(alert).toHaveTextContent('This link has expired.');
    expect(within(alert).queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
  });

  it("shows the server's message for an unknown action type", async () => {
    // Prepare
    const { actions } = renderAction({
      type: 'launch-rockets',
      user: jane,
      action: { status: 400, body: { message: 'This link is not for this action.', code: 'ACTION_TYPE_MISMATCH' } },
    });

    // Act
    const alert = await page().findByRole('alert');

    // Assess
    expect(alert).toHaveTextContent('This link is not for this action.');
    expect(within(alert).queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
    expect(actions()).toHaveLength(1);
  });
});
