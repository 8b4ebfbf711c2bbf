import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { renderShell } from '../../../test/render-shell';
import { type StubReply, stubRoute } from '../../../test/stub-routes';
import { stubApi } from '../test-utils/stub-api';
import { UnsubscribePage } from './unsubscribe-page';

function renderUnsubscribe(
  path: string,
  answer: StubReply<typeof routes.unsubscribeNotificationEmails> = { body: { unsubscribed: true } },
) {
  const api = stubApi(
    stubRoute(routes.unsubscribeNotificationEmails, answer),
    stubRoute(routes.getMe, { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
  );
  renderShell({ path, user: null, pages: [{ path: 'unsubscribe', Component: UnsubscribePage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UnsubscribePage', () => {
  it('asks first, then turns notification emails off with the link’s token', async () => {
    // Prepare
    const { api, user, page } = renderUnsubscribe('/unsubscribe?token=tok_123');
    expect(api.calls(routes.unsubscribeNotificationEmails)).toHaveLength(0);

    // Act
    await user.click(page.getByRole('button', { name: 'Stop notification emails' }));

    // Assess
    expect(await page.findByRole('status')).toHaveTextContent('Notification emails are off');
    const [call] = api.calls(routes.unsubscribeNotificationEmails);
    expect(call?.url.searchParams.get('token')).toBe('tok_123');
  });

  it('says why when the link cannot be used, and keeps the way to the preferences', async () => {
    // Prepare
    const { user, page } = renderUnsubscribe('/unsubscribe?token=old', {
      status: 400,
      body: { message: 'This unsubscribe link is not valid any more.', code: 'BAD_REQUEST' },
    });

    // Act
    await user.click(page.getByRole('button', { name: 'Stop notification emails' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid any more.');
    expect(page.getByRole('link', { name: 'Email preferences' })).toHaveAttribute('href', '/me');
  });

  it('explains a link without a token instead of offering a button that cannot work', () => {
    // Act
    const { page } = renderUnsubscribe('/unsubscribe');

    // Assess
    expect(page.getByRole('alert')).toHaveTextContent('This link is incomplete');
    expect(page.queryByRole('button', { name: 'Stop notification emails' })).toBeNull();
  });
});
