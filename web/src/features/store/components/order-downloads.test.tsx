import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { OrderDownloadView } from '@shared/schemas/digital-products';
import { renderWithProviders } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { makeOrder } from '../test-utils/fixtures';
import { OrderDownloads } from './order-downloads';

const file = (fileId: string, name: string, overrides: Partial<OrderDownloadView> = {}): OrderDownloadView => ({
  fileId,
  productStockGradeId: 'grd_cccccccccccccccccccc',
  name,
  size: 1_500_000,
  type: 'application/pdf',
  downloadLimit: 5,
  downloadsLeft: 3,
  access: 'available',
  ...overrides,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OrderDownloads', () => {
  it('lists the order’s files with the downloads left, and downloads one by its link', async () => {
    // Prepare
    const order = makeOrder({
      downloads: [
        file('file-a-0123456789', 'cookbook.pdf'),
        file('file-b-0123456789', 'extras.zip', { access: 'used-up', downloadsLeft: 0 }),
        file('file-c-0123456789', 'bonus.pdf', { access: 'refunded' }),
      ],
    });
    const api = stubRoutes(
      stubRoute(routes.downloadOrderFile, {
        body: {
          url: 'https://bucket.example.com/cookbook.pdf?sig',
          name: 'cookbook.pdf',
          size: 1_500_000,
          downloadsLeft: 2,
          expiresAt: '2026-11-02T09:35:00.000Z',
        },
      }),
    );
    const open = vi.fn();
    renderWithProviders(<OrderDownloads userId="jane" order={order} open={open} />);
    const files = screen.getByRole('list', { name: 'Your files' });
    const items = within(files).getAllByRole('listitem');

    // Assess
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('3 downloads left'),
      expect.stringContaining('All 5 downloads used'),
      expect.stringContaining('Refunded: no longer available'),
    ]);
    expect(screen.getByRole('button', { name: 'Download extras.zip' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download bonus.pdf' })).toBeDisabled();

    // Act
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download cookbook.pdf' }));

    // Assess
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://bucket.example.com/cookbook.pdf?sig'));
    expect(api.calls(routes.downloadOrderFile).map((request) => request.params)).toEqual([
      { invoiceId: order.invoiceId, fileId: 'file-a-0123456789' },
    ]);
  });

  it('says why a download was refused', async () => {
    // Prepare
    const order = makeOrder({ downloads: [file('file-a-0123456789', 'cookbook.pdf', { downloadsLeft: 1 })] });
    stubRoutes(
      stubRoute(routes.downloadOrderFile, {
        status: 410,
        body: { message: 'This purchase was refunded, so cookbook.pdf can no longer be downloaded.', code: 'PURCHASE_REFUNDED' },
      }),
    );
    const open = vi.fn();
    renderWithProviders(<OrderDownloads userId="jane" order={order} open={open} />);
    expect(screen.getByText('1 download left')).toBeInTheDocument();

    // Act
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download cookbook.pdf' }));

    // Assess
    expect(await screen.findByRole('alert')).toHaveTextContent('This purchase was refunded');
    expect(open).not.toHaveBeenCalled();
  });

  it('shows nothing for an order that delivers no files', () => {
    // Prepare
    renderWithProviders(<OrderDownloads userId="jane" order={makeOrder()} open={vi.fn()} />);

    // Assess
    expect(screen.queryByRole('heading', { name: 'Downloads' })).not.toBeInTheDocument();
  });
});
