import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { renderWithProviders } from '../../../test/render-shell';
import { stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { PackageFile } from '../api/transfer-keys';
import { id, makePackageFile } from '../test-utils/fixtures';
import { FilePreviews } from './file-previews';
import { PackageFileCard } from './package-file-card';

const T1 = id('t1');
const beach = makePackageFile(id('beach'), { name: 'beach.png', type: 'image/png' });
const dunes = makePackageFile(id('dunes'), { name: 'dunes.jpg', type: 'image/jpeg' });
const sunset = makePackageFile(id('sunset'), { name: 'sunset.webp', type: 'image/webp' });
const notes = makePackageFile(id('notes'), { name: 'notes.txt', type: 'text/plain', size: 40 });
const bigLog = makePackageFile(id('biglog'), { name: 'server.log', type: 'application/octet-stream', size: 100_000 });
const backup = makePackageFile(id('backup'), { name: 'backup.bin', type: 'application/octet-stream' });

const bucketUrl = (fileId: string) => `https://bucket.example.com/${fileId}`;

/** The package's cards inside FilePreviews, with the preview route and the bucket stubbed. */
function renderFiles(files: PackageFile[], texts: Record<string, Uint8Array> = {}) {
  const api = stubRoutes(
    stubRoute(routes.previewFile, (request) => {
      const file = files.find((one) => one.id === request.params.id) ?? beach;
      const text = file === notes || file === bigLog;
      return {
        body: {
          url: bucketUrl(file.id),
          name: file.name,
          size: file.size,
          kind: text ? ('text' as const) : ('image' as const),
          contentType: text ? 'text/plain; charset=utf-8' : file.type,
          disposition: text ? ('attachment' as const) : ('inline' as const),
          expiresAt: '2026-03-01T10:05:00.000Z',
        },
      };
    }),
    stubRoute(routes.downloadFile, (request) => ({
      body: { url: bucketUrl(request.params.id ?? ''), name: 'x', size: 1, expiresAt: '2026-03-01T10:05:00.000Z' },
    })),
  );
  // The bucket answers a Range GET with 206 and the first bytes of the file.
  const ranges: (string | null)[] = [];
  const apiFetch = api.fetchMock;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (!url.startsWith('https://bucket.example.com/')) return apiFetch(input, init);
      const range = (init.headers as Record<string, string> | undefined)?.Range ?? null;
      ranges.push(range);
      const bytes = texts[url.slice('https://bucket.example.com/'.length)] ?? new Uint8Array();
      return new Response(bytes.slice(0, 65_536), { status: 206 });
    }),
  );
  renderWithProviders(
    <FilePreviews files={files}>
      {files.map((file) => (
        <PackageFileCard key={file.id} transferId={T1} file={file} canVote />
      ))}
    </FilePreviews>,
  );
  return { api, ranges };
}

describe('the image lightbox', () => {
  it('opens an image large, named with its position, and moves with Next, Previous and the arrow keys', async () => {
    // Prepare
    const user = userEvent.setup();
    renderFiles([beach, notes, dunes, sunset]);

    // Act
    await user.click(screen.getByRole('button', { name: 'Preview dunes.jpg' }));

    // Assess
    const dialog = await screen.findByRole('dialog', { name: 'dunes.jpg' });
    expect(within(dialog).getByText('2 of 3')).toBeVisible();
    expect(await within(dialog).findByRole('img', { name: 'dunes.jpg' })).toHaveAttribute('src', bucketUrl(dunes.id));

    // Act: round from the last to the first, then back with the keys.
    await user.click(within(dialog).getByRole('button', { name: /next/i }));
    expect(screen.getByRole('dialog', { name: 'sunset.webp' })).toHaveTextContent('3 of 3');
    await user.click(within(dialog).getByRole('button', { name: /next/i }));
    expect(screen.getByRole('dialog', { name: 'beach.png' })).toHaveTextContent('1 of 3');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'sunset.webp' })).toHaveTextContent('3 of 3');
    await user.keyboard('{ArrowRight}');
    await user.click(within(dialog).getByRole('button', { name: /previous/i }));

    // Assess
    expect(screen.getByRole('dialog', { name: 'sunset.webp' })).toHaveTextContent('3 of 3');
    expect(await screen.findByRole('img', { name: 'sunset.webp' })).toHaveAttribute('src', bucketUrl(sunset.id));
  });

  it('keeps focus inside while open, and Escape closes it and gives focus back to Preview', async () => {
    // Prepare
    const user = userEvent.setup();
    renderFiles([beach, dunes]);
    const preview = screen.getByRole('button', { name: 'Preview beach.png' });
    await user.click(preview);
    const dialog = await screen.findByRole('dialog', { name: 'beach.png' });

    // Act
    for (let step = 0; step < 6; step += 1) await user.tab();

    // Assess
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    // Act
    await user.keyboard('{Escape}');

    // Assess
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(preview).toHaveFocus();
  });

  it('offers no Preview for a file that has none', () => {
    // Act
    renderFiles([backup]);

    // Assess
    expect(screen.queryByRole('button', { name: 'Preview backup.bin' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeVisible();
  });
});

describe('the text preview', () => {
  it('shows a short text file whole, read with a Range GET of its first 64 KB', async () => {
    // Prepare
    const user = userEvent.setup();
    const { ranges } = renderFiles([notes], { [notes.id]: new TextEncoder().encode('Café at 10.\nBring the maps.') });

    // Act
    await user.click(screen.getByRole('button', { name: 'Preview notes.txt' }));

    // Assess
    const dialog = await screen.findByRole('dialog', { name: 'notes.txt' });
    const text = await within(dialog).findByLabelText('Contents of notes.txt');
    expect(text.tagName).toBe('PRE');
    expect(text).toHaveTextContent('Café at 10. Bring the maps.');
    expect(within(dialog).queryByText(/Showing the first 64 KB/)).not.toBeInTheDocument();
    expect(ranges).toEqual(['bytes=0-65535']);
  });

  it('says when it shows only the first 64 KB, and drops a character cut at the boundary', async () => {
    // Prepare: 65,535 "a" then "é" (2 bytes), so the 64 KB cut falls inside it.
    const user = userEvent.setup();
    const bytes = new TextEncoder().encode(`${'a'.repeat(65_535)}é and more`);
    renderFiles([bigLog], { [bigLog.id]: bytes });

    // Act
    await user.click(screen.getByRole('button', { name: 'Preview server.log' }));

    // Assess
    const dialog = await screen.findByRole('dialog', { name: 'server.log' });
    expect(await within(dialog).findByText(/Showing the first 64 KB/)).toBeVisible();
    const text = within(dialog).getByLabelText('Contents of server.log').textContent ?? '';
    expect(text).toHaveLength(65_535);
    expect(text).not.toContain('\uFFFD');
  });
});
