import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { UploadFn } from '../lib/send-transfer';
import {
  fakeFile,
  id,
  makeFile,
  makeMember,
  makePackage,
  makePackageFile,
  makeTransfer,
  makeUploading,
} from '../test-utils/fixtures';
import { PackagePage } from './package-page';
import { TransferHomePage } from './transfer-home-page';

const T1 = id('t1');
const LINK = `https://transfers.example/transfer/${T1}/package#key=${'k'.repeat(43)}`;

const instantUpload = vi.fn<UploadFn>(async ({ file, uploading, onProgress }) => {
  onProgress?.({ fileId: uploading.file.id, sentBytes: file.size, totalBytes: file.size, phase: 'sending' });
  return { ...uploading.file, status: 'ready' };
});

/** The send page with the transfer API stubbed: a link transfer's finalize answers its link. */
function renderSendPage() {
  const api = stubRoutes(
    stubRoute(routes.listOwnTransfers, { body: { transfers: [], cursor: null } }),
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
    stubRoute(routes.listContacts, { body: { contacts: [] } }),
    stubRoute(routes.createTransfer, (request) => {
      const body = request.body as { delivery: 'email' | 'link'; downloadLimit?: number };
      return { status: 201, body: makeTransfer(T1, { delivery: body.delivery, downloadLimit: body.downloadLimit ?? null }) };
    }),
    stubRoute(routes.addRecipient, (request) => ({ body: { member: makeMember((request.body as { email: string }).email) } })),
    stubRoute(routes.setTransferDelivery, (request) => {
      const body = request.body as { delivery: 'email' | 'link'; downloadLimit: number | null };
      return { body: makeTransfer(T1, body) };
    }),
    stubRoute(routes.createFiles, (request) => ({
      body: {
        files: (request.body as { files: { name: string; size: number }[] }).files.map((file, index) =>
          makeUploading(makeFile(id(`f${index}`), { name: file.name, size: file.size })),
        ),
      },
    })),
    stubRoute(routes.finalizeTransfer, () => ({
      body: {
        ...makeTransfer(T1, { status: 'sent', fileCount: 1, delivery: 'link', downloadLimit: 3 }),
        link: LINK,
      },
    })),
    stubRoute(routes.recordFinalizeTiming, { body: makeTransfer(T1, { status: 'sent' }) }),
    stubRoute(routes.getMe, { body: jane }),
  );
  renderShell({
    path: '/transfer',
    user: jane,
    pages: [{ path: 'transfer', element: <TransferHomePage upload={instantUpload} /> }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sending by link', () => {
  it('offers "Send by email" and "Get a link", email first', async () => {
    // Prepare
    const { page } = renderSendPage();

    // Assess
    const choices = await page.findByRole('group', { name: 'How to send' });
    expect(within(choices).getByRole('radio', { name: /Send by email/ })).toBeChecked();
    expect(within(choices).getByRole('radio', { name: /Get a link/ })).not.toBeChecked();
  });

  it('still asks for a recipient when sending by email', async () => {
    // Prepare
    const { page, user, api } = renderSendPage();
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByText('Add at least one recipient.')).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)).toEqual([]);
  });

  it('sends a link transfer without recipients, with its download limit, and shows the link to copy', async () => {
    // Prepare
    const { page, user, api } = renderSendPage();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await user.click(page.getByRole('radio', { name: /Get a link/ }));
    await user.click(page.getByRole('checkbox', { name: 'Limit downloads' }));
    const count = page.getByRole('spinbutton', { name: 'Downloads allowed' });
    await user.clear(count);
    await user.type(count, '3');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)[0]?.body).toMatchObject({ delivery: 'link', downloadLimit: 3 });
    expect(api.calls(routes.addRecipient)).toEqual([]);
    expect(page.getByRole('textbox', { name: 'Link to the files' })).toHaveValue(LINK);
    expect(page.getByText(/shown only this once/)).toBeInTheDocument();
    expect(page.getByText(/3 downloads in all/)).toBeInTheDocument();

    // Act
    await user.click(page.getByRole('button', { name: 'Copy link' }));

    // Assess
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(await page.findByText('Link copied.')).toBeInTheDocument();
  });

  it('refuses a download limit out of range before anything is sent', async () => {
    // Prepare
    const { page, user, api } = renderSendPage();
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await user.click(page.getByRole('radio', { name: /Get a link/ }));
    await user.click(page.getByRole('checkbox', { name: 'Limit downloads' }));
    const count = page.getByRole('spinbutton', { name: 'Downloads allowed' });
    await user.clear(count);
    await user.type(count, '5000');

    // Act
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess
    expect(await page.findByText(/turn the download limit off/)).toBeInTheDocument();
    expect(api.calls(routes.createTransfer)).toEqual([]);
  });
});

describe('trying a failed send again after changing how it is sent', () => {
  it('sends the draft the first try made by link, with the limit chosen since', async () => {
    // Prepare: sent by email, the first try fails after its draft was made
    const { page, user, api } = renderSendPage();
    instantUpload.mockRejectedValueOnce(new Error('The connection dropped.'));
    await user.upload(await page.findByLabelText('Add files'), [fakeFile('a.txt', 1_000)]);
    await user.type(page.getByRole('combobox', { name: 'Recipient email' }), 'ana@example.com{Enter}');
    await user.click(page.getByRole('button', { name: 'Send' }));
    expect(await page.findByRole('alert')).toHaveTextContent('The connection dropped.');
    expect(api.calls(routes.setTransferDelivery)).toEqual([]);

    // Act
    await user.click(page.getByRole('radio', { name: /Get a link/ }));
    await user.click(page.getByRole('checkbox', { name: 'Limit downloads' }));
    const count = page.getByRole('spinbutton', { name: 'Downloads allowed' });
    await user.clear(count);
    await user.type(count, '2');
    await user.click(page.getByRole('button', { name: 'Send' }));

    // Assess: the same draft, now a link transfer with its limit, and its link to copy
    expect(await page.findByRole('heading', { name: 'Sent' })).toBeInTheDocument();
    expect(api.calls(routes.createTransfer).map((call) => call.body)).toEqual([expect.objectContaining({ delivery: 'email' })]);
    expect(api.calls(routes.setTransferDelivery).map((call) => [call.params.id, call.body])).toEqual([
      [T1, { delivery: 'link', downloadLimit: 2 }],
    ]);
    expect(api.calls(routes.finalizeTransfer)[0]?.params).toEqual({ id: T1 });
    expect(page.getByRole('textbox', { name: 'Link to the files' })).toHaveValue(LINK);
  });
});

describe("a link transfer's package page", () => {
  const linkTransfer = makeTransfer(T1, { status: 'sent', delivery: 'link', downloadLimit: 5, downloadCount: 2, fileCount: 1 });
  const notes = makePackageFile(id('notes'), { name: 'notes.txt', type: 'text/plain', size: 1_200 });

  function renderLinkPackage(path: string, open: StubAnswer<typeof routes.openTransferLink>) {
    const api = stubRoutes(
      stubRoute(routes.openTransferLink, open),
      stubRoute(routes.getTransferPackage, { body: makePackage(linkTransfer, [notes]) }),
      stubRoute(routes.getMe, { status: 401, body: { message: 'Log in', code: 'UNAUTHORIZED' } }),
    );
    renderShell({ path, user: null, pages: [{ path: 'transfer/:id/package', element: <PackagePage /> }] });
    return { api, page: within(screen.getByRole('main')) };
  }

  it('opens with the key from the link, for a visitor with no account, and says how many downloads are left', async () => {
    // Prepare
    const { api, page } = renderLinkPackage(`/transfer/${T1}/package#key=secret-key`, {
      body: { ...makePackage(linkTransfer, [notes]), grant: { expiresAt: '2026-03-31T10:00:00.000Z' } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: linkTransfer.title })).toBeInTheDocument();
    expect(api.calls(routes.openTransferLink)[0]).toMatchObject({ params: { id: T1 }, body: { key: 'secret-key' } });
    expect(page.getByText('3 of 5 downloads left.')).toBeInTheDocument();
    expect(page.getByText(/Log in to like or dislike them/)).toBeInTheDocument();
    expect(page.getByRole('button', { name: 'Download' })).toBeInTheDocument();
  });

  it('says a key that opens nothing does not open a transfer, and nothing more', async () => {
    // Prepare
    const { page } = renderLinkPackage(`/transfer/${T1}/package#key=wrong`, {
      status: 404,
      body: { message: 'There is no such transfer, or it was not sent to you.', code: 'NOT_FOUND' },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'This link does not open a transfer' })).toBeInTheDocument();
  });
});
