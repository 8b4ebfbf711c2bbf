import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { id, makeTransfer } from '../test-utils/fixtures';
import { TransfersPage } from './transfers-page';

const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };

function renderTransfers(path = '/transfers') {
  const api = stubRoutes(
    stubRoute(routes.listOwnTransfers, (request) =>
      request.url.searchParams.get('cursor') === 'page2'
        ? { body: { transfers: [makeTransfer(id('old1'), { title: 'Old one', status: 'sent', expired: true })], cursor: null } }
        : {
            body: {
              transfers: [
                makeTransfer(id('sent1'), {
                  title: 'Holiday photos',
                  status: 'sent',
                  totalBytes: 2_400_000,
                  finalizedAt: '2026-03-02T09:00:00.000Z',
                }),
                makeTransfer(id('draft1'), { title: '', fileCount: 3, status: 'draft' }),
                makeTransfer(id('upload1'), {
                  title: 'Wedding photos',
                  status: 'sent',
                  receivedThrough: { requestId: id('req1'), uploaderName: 'Bo Berg', uploaderNote: 'From the ceremony' },
                }),
              ],
              cursor: 'page2',
            },
          },
    ),
    stubRoute(routes.listReceivedTransfers, {
      body: { transfers: [makeTransfer(id('recv1'), { title: 'Contract', status: 'sent', owner: ana })], cursor: null },
    }),
    stubRoute(routes.getMe, { body: jane }),
  );
  renderShell({ path, user: jane, pages: [{ path: 'transfers', Component: TransfersPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TransfersPage', () => {
  it('lists the sent transfers with their name, date, size and status, linking to the sender view, a page at a time', async () => {
    // Prepare
    const { user, page } = renderTransfers();

    // Assess
    const list = await page.findByRole('list', { name: 'Sent transfers' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Holiday photos2 March 2026 · 2.4 MBSent');
    expect(within(rows[0]!).getByRole('link')).toHaveAttribute('href', `/transfers/${id('sent1')}`);
    expect(rows[1]).toHaveTextContent('3 files');
    expect(rows[1]).toHaveTextContent('Draft');

    // Act
    await user.click(page.getByRole('button', { name: 'Show more' }));

    // Assess
    expect(await within(list).findByText('Old one')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')[3]).toHaveTextContent('Expired');
  });

  it('marks an upload through a file request with who sent it and their note, and links to Request files', async () => {
    // Prepare
    const { page } = renderTransfers();

    // Assess
    const list = await page.findByRole('list', { name: 'Sent transfers' });
    const row = within(list).getAllByRole('listitem')[2];
    expect(row).toHaveTextContent('From Bo Berg through your file request');
    expect(row).toHaveTextContent('“From the ceremony”');
    expect(row).toHaveTextContent('Received');
    expect(page.getByRole('link', { name: 'Request files' })).toHaveAttribute('href', '/transfers/requests');
  });

  it('lists the received transfers with their sender and a Received badge, linking to the package', async () => {
    // Prepare
    const { user, page } = renderTransfers();
    await page.findByRole('list', { name: 'Sent transfers' });

    // Act
    await user.click(page.getByRole('link', { name: 'Received' }));

    // Assess
    const list = await page.findByRole('list', { name: 'Received transfers' });
    expect(list).toHaveTextContent('From Ana Lima');
    expect(within(list).getByText('Received')).toBeInTheDocument();
    expect(within(list).queryByText('Sent')).not.toBeInTheDocument();
    expect(within(list).getByRole('link')).toHaveAttribute('href', `/transfer/${id('recv1')}/package`);
    expect(page.getByRole('link', { name: 'Received' })).toHaveAttribute('aria-current', 'page');
  });
});
