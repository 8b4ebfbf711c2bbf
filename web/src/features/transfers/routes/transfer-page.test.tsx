import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, Page, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { id, makeMember, makePackageFile, makeTransfer, makeView } from '../test-utils/fixtures';
import { TransferPage } from './transfer-page';

const T1 = id('t1');
const photo = makePackageFile(id('photo'), { name: 'photo.jpg', size: 2_400_000, likes: 2 });
const notes = makePackageFile(id('notes'), { name: 'notes.txt', size: 1_200 });
const transfer = makeTransfer(T1, { title: 'Holiday photos', status: 'sent', fileCount: 2, totalBytes: 2_401_200 });

function renderTransfer(shown = transfer) {
  let members = [
    makeMember('ana@example.com', {
      name: 'Ana Lima',
      firstDownloadAt: '2026-03-02T09:00:00.000Z',
      downloads: [
        { fileId: photo.id, at: '2026-03-02T09:00:00.000Z' },
        { fileId: 'all', at: '2026-03-02T09:05:00.000Z' },
      ],
    }),
    makeMember('bo@example.com'),
  ];
  const api = stubRoutes(
    stubRoute(routes.getTransfer, () => ({ body: makeView(shown, { files: [photo, notes], members }) })),
    stubRoute(routes.addRecipient, (request) => {
      const member = makeMember((request.body as { email: string }).email);
      members = [...members, member];
      return { body: { member } };
    }),
    stubRoute(routes.deleteTransfer, { body: transfer }),
    stubRoute(routes.listOwnTransfers, { body: { transfers: [], cursor: null } }),
    stubRoute(routes.getMe, { body: jane }),
  );
  const rendered = renderShell({
    path: `/transfers/${T1}`,
    user: jane,
    pages: [
      { path: 'transfers/:id', Component: TransferPage },
      { path: 'transfers', element: <Page name="My transfers page" /> },
    ],
  });
  return { ...rendered, api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TransferPage', () => {
  it('tells the sender a sent transfer is password protected, and says nothing of it otherwise', async () => {
    // Prepare
    const { page, unmount } = renderTransfer({ ...transfer, passwordProtected: true });

    // Assess
    expect(await page.findByText('Password protected')).toBeInTheDocument();
    unmount();
    const plain = renderTransfer();
    expect(await plain.page.findByRole('heading', { name: 'Holiday photos', level: 1 })).toBeInTheDocument();
    expect(plain.page.queryByText('Password protected')).not.toBeInTheDocument();
  });

  it('shows the files and, per recipient, whether and what they downloaded', async () => {
    // Prepare
    const { page } = renderTransfer();

    // Assess
    expect(await page.findByRole('heading', { name: 'Holiday photos', level: 1 })).toBeInTheDocument();
    expect(within(page.getByRole('list', { name: 'Files' })).getAllByRole('listitem')[0]).toHaveTextContent('photo.jpg2.4 MB');
    const recipients = within(page.getByRole('list', { name: 'Recipients' })).getAllByRole('listitem');
    expect(recipients[0]).toHaveTextContent('Ana Lima (ana@example.com)Downloaded 2 March 2026');
    const what = page.getByRole('list', { name: 'What ana@example.com downloaded' });
    expect(
      within(what)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringMatching(/^photo\.jpg, 2 March 2026/), expect.stringMatching(/^All files \(zip\), 2 March 2026/)]);
    expect(page.getByText('bo@example.com').parentElement).toHaveTextContent('Not downloaded yet');
    expect(page.getByRole('textbox', { name: 'Package link' })).toHaveValue(`${window.location.origin}/transfer/${T1}/package`);
  });

  it('adds a recipient, who then shows in the list', async () => {
    // Prepare
    const { user, page, api } = renderTransfer();

    // Act
    await user.type(await page.findByRole('textbox', { name: 'Add a recipient' }), 'cy@example.com');
    await user.click(page.getByRole('button', { name: 'Add' }));

    // Assess
    expect(await within(page.getByRole('list', { name: 'Recipients' })).findByText('cy@example.com')).toBeInTheDocument();
    expect(api.calls(routes.addRecipient)[0]?.body).toEqual({ email: 'cy@example.com' });
  });

  it('deletes the transfer only once the dialog is confirmed', async () => {
    // Prepare
    const { user, page, api, router } = renderTransfer();

    // Act
    await user.click(await page.findByRole('button', { name: 'Delete transfer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this transfer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(routes.deleteTransfer)).toHaveLength(0);

    // Act
    await user.click(page.getByRole('button', { name: 'Delete transfer' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete transfer' }));

    // Assess
    await waitFor(() => expect(router.state.location.pathname).toBe('/transfers'));
    expect(api.calls(routes.deleteTransfer)[0]?.params).toEqual({ id: T1 });
  });
});
