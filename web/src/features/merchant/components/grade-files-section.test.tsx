import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import type { GradeFilesView } from '@shared/schemas/digital-products';
import type { FileView, UploadingFile } from '@shared/schemas/transfers';
import { toast } from '../../../lib/toast';
import { renderWithProviders } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { UploadFn } from '../lib/upload-grade-files';
import { GRADE_ID } from '../test-utils/fixtures';
import { GradeFilesSection } from './grade-files-section';

const productFile = (id: string, name: string, overrides: Partial<FileView> = {}): FileView => ({
  id,
  purpose: 'product',
  transferId: null,
  name,
  size: 2_400_000,
  type: 'application/pdf',
  status: 'ready',
  uploadMethod: 'post',
  lastModified: null,
  checksum: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  readyAt: '2026-03-01T10:01:00.000Z',
  ...overrides,
});

function pickedFile(name: string, size: number): File {
  const file = new File(['x'], name, { type: 'application/pdf', lastModified: 1_700_000_000_000 });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function renderSection(state: GradeFilesView, upload: UploadFn) {
  const api = stubRoutes(
    stubRoute(routes.listGradeFiles, () => ({ body: state })),
    stubRoute(routes.createGradeFiles, (request) => {
      const { files } = request.body as { files: { name: string; size: number; type: string }[] };
      return {
        status: 201,
        body: {
          files: files.map((declared, index): UploadingFile => ({
            file: productFile(`file-new-${index}-0123456789`, declared.name, {
              size: declared.size,
              status: 'pending',
              readyAt: null,
            }),
            upload: { method: 'post', url: 'https://bucket.example.com/', fields: {}, expiresAt: '2026-03-01T11:00:00.000Z' },
          })),
        },
      };
    }),
    stubRoute(routes.removeGradeFile, (request) => {
      const removed = state.items.find((file) => file.id === request.params.fileId);
      state.items = state.items.filter((file) => file !== removed);
      return { body: { file: removed ?? productFile('x', 'x') } };
    }),
    stubRoute(routes.updateGradeDownloads, (request) => {
      state.downloadsPerPurchase = (request.body as { downloadsPerPurchase: number }).downloadsPerPurchase;
      return { body: state };
    }),
  );
  renderWithProviders(<GradeFilesSection userId="jane" gradeId={GRADE_ID} upload={upload} />);
  return { api, user: userEvent.setup(), section: () => screen.getByRole('region', { name: 'Files delivered after purchase' }) };
}

afterEach(() => {
  act(() => toast.dismiss());
  vi.unstubAllGlobals();
});

describe('GradeFilesSection', () => {
  it('lists the grade’s files and removes one', async () => {
    // Prepare
    const state: GradeFilesView = { downloadsPerPurchase: 5, items: [productFile('file-a-0123456789', 'guide.pdf')] };
    const { user, api, section } = renderSection(state, vi.fn<UploadFn>());
    const list = await screen.findByRole('list', { name: 'Delivered files' });
    expect(within(list).getByText('guide.pdf')).toBeInTheDocument();
    expect(within(list).getByText('2.4 MB')).toBeInTheDocument();

    // Act
    await user.click(within(section()).getByRole('button', { name: 'Remove guide.pdf' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Delivered files' })).not.toBeInTheDocument());
    expect(within(section()).getByText(/No files yet/)).toBeInTheDocument();
    expect(api.calls(routes.removeGradeFile).map((request) => request.params)).toEqual([
      { productStockGradeId: GRADE_ID, fileId: 'file-a-0123456789' },
    ]);
  });

  it('uploads picked files through the upload client, showing their progress, then lists them', async () => {
    // Prepare: the upload stops half way until the test lets it go on
    const state: GradeFilesView = { downloadsPerPurchase: 5, items: [] };
    let finish: () => void = () => undefined;
    const upload = vi.fn<UploadFn>(async ({ uploading, onProgress }) => {
      onProgress?.({ fileId: uploading.file.id, sentBytes: 500, totalBytes: 1_000, phase: 'sending' });
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      const ready = { ...uploading.file, status: 'ready' as const };
      state.items = [ready];
      return ready;
    });
    const { user, api } = renderSection(state, upload);
    await screen.findByText(/No files yet/);

    // Act
    await user.upload(screen.getByLabelText('Add files'), [pickedFile('album.pdf', 1_000)]);

    // Assess: sending, half way
    const progress = await screen.findByRole('progressbar', { name: 'Uploading album.pdf' });
    expect(progress).toHaveAttribute('value', '500');
    expect(api.calls(routes.createGradeFiles).map((request) => request.body)).toEqual([
      { files: [{ name: 'album.pdf', size: 1_000, type: 'application/pdf', lastModified: 1_700_000_000_000 }] },
    ]);

    // Act
    act(() => finish());

    // Assess
    const list = await screen.findByRole('list', { name: 'Delivered files' });
    expect(within(list).getByText('album.pdf')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('saves the downloads per purchase, and refuses a number out of range without calling the server', async () => {
    // Prepare
    const state: GradeFilesView = { downloadsPerPurchase: 5, items: [] };
    const { user, api } = renderSection(state, vi.fn<UploadFn>());
    const field = await screen.findByRole('spinbutton', { name: 'Downloads per purchase' });

    // Act
    await user.clear(field);
    await user.type(field, '500');
    await user.click(screen.getByRole('button', { name: 'Save downloads' }));

    // Assess
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Give a whole number from 1 to 100'));
    expect(api.calls(routes.updateGradeDownloads)).toHaveLength(0);

    // Act
    await user.clear(field);
    await user.type(field, '3');
    await user.click(screen.getByRole('button', { name: 'Save downloads' }));

    // Assess
    await waitFor(() =>
      expect(api.calls(routes.updateGradeDownloads).map((request) => request.body)).toEqual([{ downloadsPerPurchase: 3 }]),
    );
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Downloads per purchase' })).toHaveValue(3));
  });
});
