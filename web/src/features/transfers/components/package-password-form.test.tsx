import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import { id, makePackage, makePackageFile, makeTransfer } from '../test-utils/fixtures';
import { PackagePage } from '../routes/package-page';

const T1 = id('locked');
const sent = makeTransfer(T1, { title: 'Merger documents', status: 'sent', fileCount: 1, passwordProtected: true });
const minutes = makePackageFile(id('minutes'), { name: 'board-minutes.txt', type: 'text/plain', size: 4_321 });
const LOCKED = {
  status: 403,
  body: { message: 'This transfer is protected by a password. Enter it to see the files.', code: 'PASSWORD_REQUIRED' },
};

/** The package page of a protected transfer: locked until an unlock the server accepts. */
function renderLocked(
  options: {
    unlock?: StubAnswer<typeof routes.unlockTransferPackage>;
    accept?: StubAnswer<typeof routes.acceptTransferInvite>;
    path?: string;
  } = {},
) {
  let unlocked = false;
  const api = stubRoutes(
    stubRoute(routes.getTransferPackage, () => (unlocked ? { body: makePackage(sent, [minutes]) } : LOCKED)),
    stubRoute(routes.unlockTransferPackage, (request) => {
      const answer =
        options.unlock ??
        ((request.body as { password: string }).password === 'right one'
          ? { body: { unlockedUntil: '2026-03-01T22:00:00.000Z' } }
          : { status: 403, body: { message: 'That password is not right.', code: 'WRONG_PASSWORD' } });
      const result = typeof answer === 'function' ? answer(request) : answer;
      if (result && 'status' in result && result.status !== undefined && result.status >= 400) return result;
      unlocked = true;
      return result;
    }),
    stubRoute(
      routes.acceptTransferInvite,
      options.accept ?? { status: 400, body: { message: 'This link is not valid.', code: 'BAD_REQUEST' } },
    ),
    stubRoute(routes.downloadFile, {
      body: { url: 'https://bucket.example.com/x', name: 'x', size: 1, expiresAt: '2026-03-01T10:05:00.000Z' },
    }),
    stubRoute(routes.getMe, { body: jane }),
    stubRoute(routes.assessRecaptcha, { body: { riskAnalysis: { score: 0.9, reasons: [] } } }),
  );
  renderShell({
    path: options.path ?? `/transfer/${T1}/package`,
    user: jane,
    pages: [{ path: 'transfer/:id/package', Component: PackagePage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

describe('the password form of a protected package', () => {
  it('asks for the password and shows nothing of the package until it is unlocked', async () => {
    // Prepare
    const { page } = renderLocked();

    // Assess
    expect(await page.findByRole('heading', { name: 'This transfer is protected by a password', level: 1 })).toBeInTheDocument();
    expect(page.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(page.getByRole('button', { name: 'Unlock' })).toBeDisabled();
    expect(page.queryByText('Merger documents')).not.toBeInTheDocument();
    expect(page.queryByRole('article')).not.toBeInTheDocument();
  });

  it('says a wrong password is not right, and shows the files once the right one is entered', async () => {
    // Prepare
    const { page, user, api } = renderLocked();
    const field = await page.findByLabelText('Password');

    // Act
    await user.type(field, 'wrong one');
    await user.click(page.getByRole('button', { name: 'Unlock' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('That password is not right.');
    expect(field).toHaveAttribute('aria-invalid', 'true');

    // Act
    await user.clear(field);
    await user.type(field, 'right one{Enter}');

    // Assess
    expect(await page.findByRole('heading', { name: 'Merger documents', level: 1 })).toBeInTheDocument();
    expect(page.getByRole('article', { name: 'board-minutes.txt' })).toBeInTheDocument();
    expect(page.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(api.calls(routes.unlockTransferPackage).map((request) => request.body)).toEqual([
      { password: 'wrong one' },
      { password: 'right one' },
    ]);
  });

  it('shows how long to wait after too many wrong passwords', async () => {
    // Prepare
    const { page, user } = renderLocked({
      unlock: {
        status: 429,
        body: { message: 'Too many wrong passwords. Try again in 4 minutes.', code: 'RATE_LIMITED', retryAfterSeconds: 227 },
      },
    });

    // Act
    await user.type(await page.findByLabelText('Password'), 'another guess');
    await user.click(page.getByRole('button', { name: 'Unlock' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('Too many wrong passwords. Try again in 4 minutes.');
    expect(page.queryByRole('article')).not.toBeInTheDocument();
  });

  it('asks for the password after an emailed link, which opens nothing by itself', async () => {
    // Prepare
    const grant = { email: 'jane@example.com', expiresAt: '2026-03-31T10:00:00.000Z', accountCreated: false };
    const { page, user } = renderLocked({
      path: `/transfer/${T1}/package#invite=tok123`,
      accept: { body: { passwordRequired: true, transferId: T1, grant } },
    });

    // Act
    await user.type(await page.findByLabelText('Password'), 'right one');
    await user.click(page.getByRole('button', { name: 'Unlock' }));

    // Assess
    expect(await page.findByRole('article', { name: 'board-minutes.txt' })).toBeInTheDocument();
  });
});
