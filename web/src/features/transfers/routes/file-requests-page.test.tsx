import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import type { FileRequestView } from '../api/file-request-keys';
import { jane, renderShell } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import { id } from '../test-utils/fixtures';
import { FileRequestsPage } from './file-requests-page';

const makeRequest = (requestId: string, overrides: Partial<FileRequestView> = {}): FileRequestView => ({
  id: requestId,
  title: 'Wedding photos',
  message: '',
  status: 'open',
  planId: 'free',
  createdAt: '2026-03-01T10:00:00.000Z',
  closedAt: null,
  expiresAt: '2026-03-08T10:00:00.000Z',
  expired: false,
  maxUploads: 50,
  maxBytes: 2_000_000_000,
  maxUploadBytes: 2_000_000_000,
  uploadCount: 3,
  finishedCount: 2,
  totalBytes: 4_500_000,
  path: `/transfer/request/${requestId}`,
  ...overrides,
});

function renderRequests(options: { older?: FileRequestView[]; olderRefused?: boolean } = {}) {
  const requests = [
    makeRequest(id('open1')),
    makeRequest(id('closed1'), { title: 'Old contracts', status: 'closed', finishedCount: 1 }),
  ];
  const older = options.older ?? [];
  const api = stubRoutes(
    // The first page names the next when there are older requests; the cursor opens them.
    stubRoute(routes.listFileRequests, (request) =>
      request.url.searchParams.get('cursor') !== 'page-2'
        ? { body: { requests, cursor: older.length ? 'page-2' : null } }
        : options.olderRefused
          ? {
              status: 400,
              body: { message: 'That page link is not valid. Start again from the first page.', code: 'BAD_REQUEST' },
            }
          : { body: { requests: older, cursor: null } },
    ),
    stubRoute(routes.showTransferHome, {
      body: {
        seo: { title: 'Send files', description: '', keywords: [], imageUrl: '' },
        limits: PLAN_LIMITS.free,
        signedIn: true,
        sent: [],
        received: [],
        draft: null,
      },
    }),
    stubRoute(routes.createFileRequest, (request) => {
      const body = request.body as { title: string; message: string; expiresInDays: number };
      const created = makeRequest(id('new1'), {
        title: body.title,
        message: body.message,
        uploadCount: 0,
        finishedCount: 0,
        totalBytes: 0,
      });
      requests.unshift(created);
      return { status: 201, body: created };
    }),
    stubRoute(routes.closeFileRequest, (request) => {
      const index = requests.findIndex((item) => item.id === request.params.id);
      requests[index] = { ...requests[index]!, status: 'closed', closedAt: '2026-03-02T10:00:00.000Z' };
      return { body: requests[index]! };
    }),
  );
  renderShell({ path: '/transfers/requests', user: jane, pages: [{ path: 'transfers/requests', Component: FileRequestsPage }] });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FileRequestsPage', () => {
  it('creates a request and shows its link to copy', async () => {
    // Prepare
    const { api, user, page } = renderRequests();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const form = await page.findByRole('form', { name: 'New file request' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'Conference slides');
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Your deck, please');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Open for' }), '3 days');
    await user.click(within(form).getByRole('button', { name: 'Create request' }));

    // Assess
    const link = await within(form).findByRole('region', { name: 'New request link' });
    expect(within(link).getByRole('textbox', { name: 'Link to share' })).toHaveValue(
      `${window.location.origin}/transfer/request/${id('new1')}`,
    );
    expect(api.calls(routes.createFileRequest)[0]?.body).toEqual({
      title: 'Conference slides',
      message: 'Your deck, please',
      expiresInDays: 3,
    });
    await user.click(within(link).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/transfer/request/${id('new1')}`);
    expect(await page.findByText('Conference slides', { selector: 'span' })).toBeInTheDocument();
  });

  it('asks for a title before creating anything', async () => {
    // Prepare
    const { api, user, page } = renderRequests();
    const form = await page.findByRole('form', { name: 'New file request' });

    // Act
    await user.click(within(form).getByRole('button', { name: 'Create request' }));

    // Assess
    expect(within(form).getByRole('alert')).toHaveTextContent('Give the request a title.');
    expect(api.calls(routes.createFileRequest)).toHaveLength(0);
  });

  it('lists the requests with their uploads and status, and closes an open one', async () => {
    // Prepare
    const { api, user, page } = renderRequests();
    const list = await page.findByRole('list', { name: 'Your file requests' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Wedding photos');
    expect(rows[0]).toHaveTextContent('2 uploads received · 4.5 MB');
    expect(rows[0]).toHaveTextContent('Open');
    expect(rows[1]).toHaveTextContent('Closed');
    expect(within(rows[1]!).queryByRole('button', { name: 'Close Old contracts' })).not.toBeInTheDocument();

    // Act
    await user.click(within(rows[0]!).getByRole('button', { name: 'Close Wedding photos' }));

    // Assess
    expect(await within(list).findAllByText('Closed')).toHaveLength(2);
    expect(api.calls(routes.closeFileRequest, { id: id('open1') })).toHaveLength(1);
  });

  it('shows older requests on demand, after the first page, and no button once all are shown', async () => {
    // Prepare
    const { api, user, page } = renderRequests({ older: [makeRequest(id('old1'), { title: 'Tax papers 2024' })] });
    const list = await page.findByRole('list', { name: 'Your file requests' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(page.queryByText('Tax papers 2024')).not.toBeInTheDocument();

    // Act
    await user.click(page.getByRole('button', { name: 'Show older requests' }));

    // Assess
    expect(await within(list).findByText('Tax papers 2024')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(page.queryByRole('button', { name: 'Show older requests' })).not.toBeInTheDocument();
    expect(api.calls(routes.listFileRequests).map((call) => call.url.searchParams.get('cursor'))).toEqual([null, 'page-2']);
  });

  it('says why older requests could not be loaded', async () => {
    // Prepare
    const { user, page } = renderRequests({ older: [makeRequest(id('old1'))], olderRefused: true });
    await page.findByRole('list', { name: 'Your file requests' });

    // Act
    await user.click(page.getByRole('button', { name: 'Show older requests' }));

    // Assess
    expect(await page.findByRole('alert')).toHaveTextContent('That page link is not valid. Start again from the first page.');
    expect(page.getAllByRole('listitem')).toHaveLength(2);
  });

  it('leads back to the transfers', async () => {
    // Prepare
    const { page } = renderRequests();

    // Assess
    expect(await page.findByRole('heading', { level: 1, name: 'Request files' })).toBeInTheDocument();
    expect(page.getByRole('link', { name: 'My transfers' })).toHaveAttribute('href', '/transfers');
  });
});
