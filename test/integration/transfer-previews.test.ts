import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { patternedBytes, sentTransfer } from '../support/transfers';

const suite = apiSuite();

// A 1x1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LOG = patternedBytes(100_000, 11);
const HTML = Buffer.from('<!doctype html><script>document.title = "ran"</script><p>hello</p>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('previews of a package’s files', () => {
  let sender: SignedInUser;
  let recipient: SignedInUser;
  let stranger: SignedInUser;
  let transferId: string;
  let fileIds: Record<'photo' | 'log' | 'page' | 'drawing' | 'archive', string>;

  beforeAll(async () => {
    [sender, recipient, stranger] = (await Promise.all(
      ['preview-sender', 'preview-recipient', 'preview-stranger'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser, SignedInUser];
    const sent = await sentTransfer(suite.api, sender, {
      files: [
        { name: 'photo.png', bytes: PNG, type: 'image/png' },
        { name: 'server.log', bytes: LOG, type: 'text/plain' },
        { name: 'page.html', bytes: HTML, type: 'text/html' },
        { name: 'drawing.svg', bytes: SVG, type: 'image/svg+xml' },
        { name: 'backup.bin', bytes: patternedBytes(64), type: 'application/octet-stream' },
      ],
      recipients: [recipient.email],
    });
    transferId = sent.transferId;
    const [photo = '', log = '', page = '', drawing = '', archive = ''] = sent.fileIds;
    fileIds = { photo, log, page, drawing, archive };
  });

  it('gives the sender and a recipient an inline link that shows the image', async () => {
    // Act
    const forSender = await suite.api.call(routes.previewFile, { params: { id: fileIds.photo }, as: sender });
    const forRecipient = await suite.api.call(routes.previewFile, { params: { id: fileIds.photo }, as: recipient });

    // Assess
    expectOk(forSender);
    expectOk(forRecipient);
    expect(forRecipient.body).toMatchObject({
      name: 'photo.png',
      kind: 'image',
      disposition: 'inline',
      contentType: 'image/png',
    });
    const image = await fetch(forRecipient.body.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toMatch(/^inline; filename="photo.png"/);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('answers a Range GET of a text preview with 206 and exactly those bytes, as plain text', async () => {
    // Prepare
    const preview = await suite.api.call(routes.previewFile, { params: { id: fileIds.log }, as: recipient });
    expectOk(preview);

    // Act
    const first = await fetch(preview.body.url, { headers: { Range: 'bytes=0-65535' } });
    const middle = await fetch(preview.body.url, { headers: { Range: 'bytes=70000-70009' } });

    // Assess
    expect(preview.body).toMatchObject({ kind: 'text', disposition: 'attachment', contentType: 'text/plain; charset=utf-8' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-65535/${LOG.length}`);
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await first.arrayBuffer()).equals(LOG.subarray(0, 65_536))).toBe(true);
    expect(middle.status).toBe(206);
    expect(Buffer.from(await middle.arrayBuffer()).equals(LOG.subarray(70_000, 70_010))).toBe(true);
  });

  it('never serves HTML or SVG inline: only as a plain-text attachment', async () => {
    // Act
    const page = await suite.api.call(routes.previewFile, { params: { id: fileIds.page }, as: recipient });
    const drawing = await suite.api.call(routes.previewFile, { params: { id: fileIds.drawing }, as: recipient });

    // Assess
    for (const answer of [page, drawing]) {
      expectOk(answer);
      expect(answer.body).toMatchObject({ kind: 'text', disposition: 'attachment' });
      const served = await fetch(answer.body.url);
      expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    }
  });

  it("does not serve HTML or SVG inline through the download route's inline links either", async () => {
    // Act
    const page = await suite.api.call(routes.downloadFile, {
      params: { id: fileIds.page },
      query: { disposition: 'inline' },
      as: recipient,
    });
    const drawing = await suite.api.call(routes.downloadFile, {
      params: { id: fileIds.drawing },
      query: { disposition: 'inline' },
      as: recipient,
    });

    // Assess
    for (const answer of [page, drawing]) {
      expectOk(answer);
      const served = await fetch(answer.body.url);
      expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    }
  });

  it('answers 404 to anyone else, as for a file that does not exist', async () => {
    // Act
    const strangers = await suite.api.call(routes.previewFile, { params: { id: fileIds.photo }, as: stranger });
    const unknown = await suite.api.call(routes.previewFile, { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, as: recipient });
    const signedOut = await suite.api.call(routes.previewFile, { params: { id: fileIds.photo } });

    // Assess
    expectError(strangers, 404);
    expectError(unknown, 404);
    expect(strangers.body.message).toBe(unknown.body.message);
    expectError(signedOut, 401);
  });

  it('refuses a type that has no preview with 409, saying to download it', async () => {
    // Act
    const answer = await suite.api.call(routes.previewFile, { params: { id: fileIds.archive }, as: recipient });

    // Assess
    expectError(answer, 409);
    expect(answer.body.message).toContain('download it');
  });

  it('does not count a preview as a download: the sender sees none', async () => {
    // Act
    const members = await suite.api.call(routes.listTransferMembers, { params: { id: transferId }, as: sender });

    // Assess
    expectOk(members);
    const member = members.body.members.find((one) => one.email === recipient.email);
    expect(member?.firstDownloadAt ?? null).toBeNull();
    expect(member?.downloads ?? []).toEqual([]);
  });

  it("counts each preview by anyone but the sender as a view on the sender's transfer, and none as a download", async () => {
    // Prepare: a transfer of its own, so other tests' previews do not count here
    const own = await sentTransfer(suite.api, sender, {
      files: [{ name: 'photo.png', bytes: PNG, type: 'image/png' }],
      recipients: [recipient.email],
    });
    const fileId = own.fileIds[0] ?? '';

    // Act: three previews at once by the recipient, one by the sender
    const previews = await Promise.all([
      ...Array.from({ length: 3 }, () => suite.api.call(routes.previewFile, { params: { id: fileId }, as: recipient })),
      suite.api.call(routes.previewFile, { params: { id: fileId }, as: sender }),
    ]);
    const view = await suite.api.call(routes.getTransfer, { params: { id: own.transferId }, as: sender });
    const log = await suite.api.call(routes.listTransferDownloads, { params: { id: own.transferId }, as: sender });

    // Assess
    for (const preview of previews) expectOk(preview);
    expectOk(view);
    expect(view.body.transfer).toMatchObject({ previewCount: 3, downloadCount: 0 });
    expectOk(log);
    expect(log.body.downloads).toEqual([]);
  });

  it('answers 410 once the transfer has expired', async () => {
    // Prepare
    const {
      fileIds: [fileId = ''],
    } = await sentTransfer(suite.api, sender, {
      files: [{ name: 'old.txt', bytes: patternedBytes(10), type: 'text/plain' }],
      recipients: [recipient.email],
    });
    const { data: file } = await getDb().entities.storedFile.get({ fileId }).go();
    await getDb()
      .entities.transfer.patch({ transferId: file?.transferId ?? '' })
      .set({ availableUntil: '2026-01-02T00:00:00.000Z' })
      .go();

    // Act
    const answer = await suite.api.call(routes.previewFile, { params: { id: fileId }, as: recipient });

    // Assess
    expectError(answer, 410);
    expect(answer.body.message).toContain('2026-01-02');
  });
});
