import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@shared/routes';
import type { DownloadLogEntry } from '@shared/schemas/transfers';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { id, makePackageFile, makeTransfer, makeView } from '../test-utils/fixtures';
import { TransferPage } from '../routes/transfer-page';

const T1 = id('t1');
const notes = makePackageFile(id('notes'), { name: 'notes.txt', size: 1_200 });
const linkTransfer = makeTransfer(T1, {
  title: 'Shared notes',
  status: 'sent',
  delivery: 'link',
  downloadLimit: 3,
  downloadCount: 2,
  previewCount: 4,
  fileCount: 1,
});

const entry = (overrides: Partial<DownloadLogEntry>): DownloadLogEntry => ({
  at: '2026-03-02T09:00:00.000Z',
  fileId: notes.id,
  fileName: 'notes.txt',
  downloader: 'anonymous',
  name: null,
  userId: null,
  ...overrides,
});

function renderLog() {
  const api = stubRoutes(
    stubRoute(routes.getTransfer, { body: makeView(linkTransfer, { files: [notes], members: [] }) }),
    stubRoute(routes.listTransferDownloads, (request) =>
      request.url.searchParams.get('cursor') === 'page2'
        ? { body: { downloads: [entry({ at: '2026-03-01T08:00:00.000Z' })], cursor: null } }
        : {
            body: {
              downloads: [
                entry({ fileId: 'all', fileName: 'All files', downloader: 'user', name: 'Ana Lima', userId: 'u-ana' }),
                entry({}),
              ],
              cursor: 'page2',
            },
          },
    ),
    stubRoute(routes.listOwnTransfers, { body: { transfers: [], cursor: null } }),
    stubRoute(routes.getMe, { body: jane }),
  );
  renderShell({ path: `/transfers/${T1}`, user: jane, pages: [{ path: 'transfers/:id', Component: TransferPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

describe("the sender's download log", () => {
  it('lists each download, newest first, with who took it, and how many of the limit are taken', async () => {
    // Prepare
    const { page } = renderLog();

    // Assess
    const log = await page.findByRole('list', { name: 'Download log' });
    const items = within(log).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Ana Lima downloaded all files/),
      expect.stringMatching(/^Anonymous downloaded notes\.txt/),
    ]);
    expect(page.getByText('2 of 3 downloads taken.')).toBeInTheDocument();
    expect(page.getByText('Previewed 4 times (previews are not downloads).')).toBeInTheDocument();
    // A link transfer's link is shown only at the send: its package address alone opens nothing.
    expect(page.queryByRole('textbox', { name: 'Package link' })).not.toBeInTheDocument();
  });

  it('shows older downloads on request, with the cursor of the page before', async () => {
    // Prepare
    const { page, user, api } = renderLog();
    await page.findByRole('list', { name: 'Download log' });

    // Act
    await user.click(page.getByRole('button', { name: 'Show older downloads' }));

    // Assess
    await expect.poll(() => within(page.getByRole('list', { name: 'Download log' })).getAllByRole('listitem').length).toBe(3);
    expect(api.calls(routes.listTransferDownloads).map((call) => call.url.searchParams.get('cursor'))).toEqual([null, 'page2']);
    expect(page.queryByRole('button', { name: 'Show older downloads' })).not.toBeInTheDocument();
  });
});
