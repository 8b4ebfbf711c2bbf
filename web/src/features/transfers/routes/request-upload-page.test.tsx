import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { PublicFileRequest, RequestUploadView } from '../api/file-request-keys';
import { renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { UploadFn } from '../lib/send-transfer';
import { fakeFile, id, makeFile, makeUploading } from '../test-utils/fixtures';
import { RequestUploadPage } from './request-upload-page';

const REQUEST = id('req1');
const UPLOAD = id('up1');
const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };

const request: PublicFileRequest = {
  id: REQUEST,
  title: 'Wedding photos',
  message: 'Send me yours!',
  requester: ana,
  expiresAt: '2026-03-08T10:00:00.000Z',
  maxUploadBytes: 2_000_000_000,
  remainingBytes: 2_000_000_000,
};

const uploadView = (overrides: Partial<RequestUploadView> = {}): RequestUploadView => ({
  id: UPLOAD,
  requestId: REQUEST,
  requestTitle: 'Wedding photos',
  uploaderName: 'Bo',
  note: '',
  status: 'uploading',
  createdAt: '2026-03-01T10:00:00.000Z',
  finishedAt: null,
  grantExpiresAt: '2026-03-08T10:00:00.000Z',
  maxUploadBytes: 2_000_000_000,
  files: [],
  ...overrides,
});

/** An upload client that reports every byte sent at once and answers the ready file. */
const instantUpload = (log: string[]) =>
  vi.fn<UploadFn>(async ({ file, uploading, onProgress }) => {
    log.push(`upload ${file.name}`);
    onProgress?.({ fileId: uploading.file.id, sentBytes: file.size, totalBytes: file.size, phase: 'sending' });
    return { ...uploading.file, status: 'ready' };
  });

function renderUploadPage(
  options: { show?: StubAnswer<typeof routes.showFileRequest>; start?: StubAnswer<typeof routes.startRequestUpload> } = {},
) {
  const log: string[] = [];
  const upload = instantUpload(log);
  const api = stubRoutes(
    stubRoute(routes.showFileRequest, options.show ?? { body: request }),
    stubRoute(
      routes.startRequestUpload,
      options.start ??
        ((stubbed) => {
          const body = stubbed.body as { name: string; note: string };
          log.push(`start ${body.name} / ${body.note}`);
          return { status: 201, body: uploadView({ uploaderName: body.name, note: body.note }) };
        }),
    ),
    stubRoute(routes.createRequestUploadFiles, (stubbed) => {
      const body = stubbed.body as { files: { name: string; size: number }[] };
      log.push(`files ${body.files.map((file) => file.name).join(',')}`);
      return {
        status: 201,
        body: {
          files: body.files.map((file) =>
            makeUploading(makeFile(id(file.name.replace(/\W/g, '')), { name: file.name, size: file.size, status: 'pending' })),
          ),
        },
      };
    }),
    stubRoute(routes.finishRequestUpload, () => {
      log.push('finish');
      return {
        body: uploadView({
          status: 'finished',
          files: [
            makeFile(id('vowstxt'), { name: 'vows.txt', size: 1_200 }),
            makeFile(id('toastpdf'), { name: 'toast.pdf', size: 2_400 }),
          ],
        }),
      };
    }),
  );
  renderShell({
    path: `/transfer/request/${REQUEST}`,
    pages: [{ path: 'transfer/request/:id', element: <RequestUploadPage upload={upload} /> }],
  });
  return { api, log, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

describe('RequestUploadPage', () => {
  it('lets a visitor without an account send files with their name and note, then shows only what they sent', async () => {
    // Prepare
    const { log, user, page } = renderUploadPage();
    const form = await page.findByRole('form', { name: 'Send files to Ana Lima' });
    expect(page.getByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
    expect(page.getByText('Send me yours!')).toBeInTheDocument();

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Your name' }), 'Bo');
    await user.type(within(form).getByRole('textbox', { name: 'Note (optional)' }), 'From the ceremony');
    await user.upload(within(form).getByLabelText('Add files'), [fakeFile('vows.txt', 1_200), fakeFile('toast.pdf', 2_400)]);
    await user.click(within(form).getByRole('button', { name: 'Send files' }));

    // Assess
    expect(await page.findByRole('heading', { name: 'Files sent' })).toBeInTheDocument();
    const sent = page.getByRole('list', { name: 'Your files' });
    expect(
      within(sent)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('vows.txt'), expect.stringContaining('toast.pdf')]);
    expect(page.getByText(/Ana Lima has your 2 files and has been told/)).toBeInTheDocument();
    expect(log).toEqual([
      'start Bo / From the ceremony',
      'files vows.txt,toast.pdf',
      'upload vows.txt',
      'upload toast.pdf',
      'finish',
    ]);
  });

  it('asks for a name and a file before sending anything', async () => {
    // Prepare
    const { log, user, page } = renderUploadPage();
    const form = await page.findByRole('form', { name: 'Send files to Ana Lima' });

    // Act
    await user.click(within(form).getByRole('button', { name: 'Send files' }));
    const noName = within(form).getByRole('alert').textContent;
    await user.type(within(form).getByRole('textbox', { name: 'Your name' }), 'Bo');
    await user.click(within(form).getByRole('button', { name: 'Send files' }));

    // Assess
    expect(noName).toBe('Enter your name, so they know who sent the files.');
    expect(within(form).getByRole('alert')).toHaveTextContent('Add at least one file.');
    expect(log).toEqual([]);
  });

  it('says plainly when the request is closed', async () => {
    // Prepare
    const { page } = renderUploadPage({
      show: {
        status: 410,
        body: { message: 'This file request was closed by the person who made it: it takes no more files.', code: 'GONE' },
      },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'This request takes no more files' })).toBeInTheDocument();
    expect(page.getByText('This file request was closed by the person who made it: it takes no more files.')).toBeInTheDocument();
    expect(page.queryByRole('form')).not.toBeInTheDocument();
  });

  it('says so when the link names no request', async () => {
    // Prepare
    const { page } = renderUploadPage({
      show: { status: 404, body: { message: 'There is no such file request.', code: 'NOT_FOUND' } },
    });

    // Assess
    expect(await page.findByRole('heading', { name: 'There is no such file request' })).toBeInTheDocument();
  });

  it('shows why the upload failed, and keeps the form', async () => {
    // Prepare
    const { user, page } = renderUploadPage({
      start: {
        status: 429,
        body: { message: 'Too many uploads were started from your network. Try again in 20 minutes.', code: 'RATE_LIMITED' },
      },
    });
    const form = await page.findByRole('form', { name: 'Send files to Ana Lima' });

    // Act
    await user.type(within(form).getByRole('textbox', { name: 'Your name' }), 'Bo');
    await user.upload(within(form).getByLabelText('Add files'), [fakeFile('vows.txt', 1_200)]);
    await user.click(within(form).getByRole('button', { name: 'Send files' }));

    // Assess
    expect(await within(form).findByRole('alert')).toHaveTextContent('Too many uploads were started from your network');
    expect(within(form).getByRole('button', { name: 'Send files' })).toBeEnabled();
  });
});
