import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderShell } from '../../../test/render-shell';
import { stubApi } from '../test-utils/stub-api';
import { LoginFailedPage } from './login-failed-page';

function renderFailed(path: string) {
  // No route answers: the page must not need the API.
  stubApi();
  const shell = renderShell({ path, pages: [{ path: 'login/failed', Component: LoginFailedPage }] });
  return { ...shell, user: userEvent.setup() };
}

function page() {
  return within(screen.getByRole('main'));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginFailedPage', () => {
  it.each([
    ['cancelled', 'You cancelled the Google login.'],
    ['state_expired', 'The login took too long. Please try again.'],
    ['browser_mismatch', 'The login was started in another browser or tab. Please try again here.'],
    ['not_configured', 'Google login is not available right now. Use the email login instead.'],
    ['invalid_request', 'Google could not log you in. Please try again.'],
    ['provider_error', 'Google could not log you in. Please try again.'],
    ['invalid_state', 'Google could not log you in. Please try again.'],
    ['state_used', 'Google could not log you in. Please try again.'],
    ['invalid_id_token', 'Google could not log you in. Please try again.'],
    ['something_else', 'Google could not log you in. Please try again.'],
    ['toString', 'Google could not log you in. Please try again.'],
  ])('explains reason=%s in plain words', (reason, message) => {
    // Prepare
    renderFailed(`/login/failed?reason=${reason}`);

    // Act
    const alert = page().getByRole('alert');

    // Assess
    expect(within(alert).getByRole('heading', { level: 1, name: 'Login failed' })).toBeInTheDocument();
    expect(alert).toHaveTextContent(message);
    expect(within(alert).getByRole('link', { name: 'Back to the rankings' })).toHaveAttribute('href', '/');
  });

  it('gives the general message when the reason is missing, and titles the page', () => {
    // Prepare
    renderFailed('/login/failed');

    // Act
    const alert = page().getByRole('alert');

    // Assess
    expect(alert).toHaveTextContent('Google could not log you in. Please try again.');
    expect(document.title).toBe('Login failed · TopPubs');
  });

  it('opens the login modal on Try again', async () => {
    // Prepare
    const { user } = renderFailed('/login/failed?reason=cancelled');

    // Act
    await user.click(page().getByRole('button', { name: 'Try again' }));

    // Assess
    expect(await screen.findByRole('dialog', { name: 'Log in to TopPubs' })).toBeInTheDocument();
  });
});
