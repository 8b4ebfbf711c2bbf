import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { patternedBytes, postUpload } from '../support/transfers';

const suite = apiSuite();

/** The cookies an answer set, as a browser would send them back. */
const cookieHeader = (setCookies: readonly string[]) => setCookies.map((cookie) => cookie.split(';')[0]).join('; ');
const keyOf = (link: string) => new URL(link).hash.replace(/^#key=/, '');

interface LinkTransfer {
  transferId: string;
  fileIds: string[];
  link: string;
  key: string;
}

/** A sent link transfer: no recipients, small text files, optionally a download limit. */
async function linkTransfer(
  sender: SignedInUser,
  options: { files?: number; downloadLimit?: number; title?: string; recipients?: string[] } = {},
): Promise<LinkTransfer> {
  const created = await suite.api.call(routes.createTransfer, {
    body: {
      title: options.title ?? 'Shared by link',
      delivery: 'link',
      ...(options.downloadLimit ? { downloadLimit: options.downloadLimit } : {}),
    },
    as: sender,
  });
  expectOk(created, 201);
  const transferId = created.body.id;
  const fileIds: string[] = [];
  for (let index = 0; index < (options.files ?? 1); index += 1) {
    const bytes = patternedBytes(200 + index, index);
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: `file-${index}.txt`, size: bytes.length, type: 'text/plain' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, bytes, 'text/plain')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    fileIds.push(record.body.file.id);
  }
  for (const email of options.recipients ?? []) {
    expectOk(await suite.api.call(routes.addRecipient, { params: { id: transferId }, body: { email }, as: sender }));
  }
  const sent = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender });
  expectOk(sent);
  const link = sent.body.link ?? '';
  return { transferId, fileIds, link, key: keyOf(link) };
}

/** Someone with the link and no account: opens it, and answers the cookie their browser would keep. */
async function openAsVisitor(transfer: LinkTransfer, as?: SignedInUser): Promise<{ cookie: string }> {
  const opened = await suite.api.call(routes.openTransferLink, {
    params: { id: transfer.transferId },
    body: { key: transfer.key },
    ...(as ? { as } : {}),
  });
  expectOk(opened);
  return { cookie: cookieHeader(opened.cookies) };
}

describe('a link transfer', () => {
  let sender: SignedInUser;
  let stranger: SignedInUser;

  beforeAll(async () => {
    [sender, stranger] = (await Promise.all(['link-sender', 'link-stranger'].map((label) => suite.api.signIn(label)))) as [
      SignedInUser,
      SignedInUser,
    ];
  });

  it('is sent without recipients and answers its link once, with an unguessable key', async () => {
    // Act
    const transfer = await linkTransfer(sender, { title: 'Brochure' });
    const view = await suite.api.call(routes.getTransfer, { params: { id: transfer.transferId }, as: sender });

    // Assess
    expect(transfer.link).toMatch(new RegExp(`/transfer/${transfer.transferId}/package#key=[A-Za-z0-9_-]{43}$`));
    expectOk(view);
    expect(view.body.transfer).toMatchObject({ delivery: 'link', status: 'sent', recipientCount: 0 });
    expect(view.text).not.toContain(transfer.key);
    const { data: stored } = await getDb().entities.transfer.get({ transferId: transfer.transferId }).go();
    expect(JSON.stringify(stored)).not.toContain(transfer.key);
  });

  it('opens its package and its downloads to anyone with the link, with no session and no account', async () => {
    // Prepare
    const transfer = await linkTransfer(sender, { files: 2 });

    // Act
    const opened = await suite.api.call(routes.openTransferLink, {
      params: { id: transfer.transferId },
      body: { key: transfer.key },
    });
    expectOk(opened);
    const headers = { cookie: cookieHeader(opened.cookies) };
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, headers });
    const screen = await suite.api.call(routes.showPackageScreen, { params: { id: transfer.transferId }, headers });
    const download = await suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[0] ?? '' }, headers });
    const zip = await suite.api.call(routes.downloadAllFiles, { params: { id: transfer.transferId }, headers });
    const me = await suite.api.call(routes.getMe, { headers });

    // Assess
    expect(opened.cookies).toEqual([
      expect.stringMatching(new RegExp(`^tpg_${transfer.transferId}=[^;]+; Path=/api/i/; HttpOnly; Secure; SameSite=Lax`)),
    ]);
    const openedPackage = 'files' in opened.body ? opened.body : null;
    expect(openedPackage?.files.map((file) => file.name)).toEqual(['file-0.txt', 'file-1.txt']);
    expect(openedPackage?.isOwner).toBe(false);
    expectOk(pkg);
    expect(pkg.cookies).toEqual([]);
    expectOk(screen);
    expectOk(download);
    const bytes = new Uint8Array(await (await fetch(download.body.url)).arrayBuffer());
    expect(Buffer.from(bytes).equals(patternedBytes(200, 0))).toBe(true);
    expectOk(zip);
    expect(zip.body.files).toHaveLength(2);
    expectError(me, 401);
  });

  it('answers a wrong or missing key exactly as a transfer that does not exist', async () => {
    // Prepare
    const transfer = await linkTransfer(sender, { title: 'Secret plans' });
    const emailOnly = await suite.api.call(routes.createTransfer, { body: { title: 'By email' }, as: sender });
    expectOk(emailOnly, 201);

    // Act
    const unknown = await suite.api.call(routes.openTransferLink, {
      params: { id: 'nosuchtransfer00' },
      body: { key: transfer.key },
    });
    const wrong = await suite.api.call(routes.openTransferLink, {
      params: { id: transfer.transferId },
      body: { key: `${transfer.key.slice(0, -2)}xx` },
    });
    const missing = await suite.api.call(routes.openTransferLink, { params: { id: transfer.transferId }, body: {} });
    const notALink = await suite.api.call(routes.openTransferLink, {
      params: { id: emailOnly.body.id },
      body: { key: transfer.key },
    });
    const noCookieUnknown = await suite.api.call(routes.getTransferPackage, { params: { id: 'nosuchtransfer00' } });
    const noCookie = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId } });
    const strangerPkg = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, as: stranger });
    const strangerUnknown = await suite.api.call(routes.getTransferPackage, { params: { id: 'nosuchtransfer00' }, as: stranger });

    // Assess
    expectError(unknown, 404);
    for (const answer of [wrong, missing, notALink]) {
      expectError(answer, 404);
      expect(answer.body).toEqual(unknown.body);
      expect(answer.cookies).toEqual([]);
      expect(answer.text).not.toMatch(/Secret plans|file-0|\d+ bytes/);
    }
    expect(noCookie.status).toBe(noCookieUnknown.status);
    expect(noCookie.body).toEqual(noCookieUnknown.body);
    expectError(strangerPkg, 404);
    expect(strangerPkg.body).toEqual(strangerUnknown.body);
  });

  it('answers 410 with the date once expired, to the right key only', async () => {
    // Prepare
    const transfer = await linkTransfer(sender);
    const visitor = await openAsVisitor(transfer);
    await getDb()
      .entities.transfer.patch({ transferId: transfer.transferId })
      .set({ availableUntil: '2026-01-02T00:00:00.000Z' })
      .go();

    // Act
    const opened = await suite.api.call(routes.openTransferLink, {
      params: { id: transfer.transferId },
      body: { key: transfer.key },
    });
    const wrong = await suite.api.call(routes.openTransferLink, { params: { id: transfer.transferId }, body: { key: 'nope' } });
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, headers: visitor });
    const download = await suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[0] ?? '' }, headers: visitor });

    // Assess
    expectError(opened, 410, 'GONE');
    expect(opened.body.message).toContain('2026-01-02');
    expectError(wrong, 404);
    expectError(pkg, 410, 'GONE');
    expectError(download, 410, 'GONE');
  });

  it('opens only its own transfer, and only while the transfer exists: deleting it revokes the link', async () => {
    // Prepare
    const [a, b] = [await linkTransfer(sender), await linkTransfer(sender)];
    const visitor = await openAsVisitor(a);

    // Act
    const other = await suite.api.call(routes.getTransferPackage, { params: { id: b.transferId }, headers: visitor });
    const otherFile = await suite.api.call(routes.downloadFile, { params: { id: b.fileIds[0] ?? '' }, headers: visitor });
    expectOk(await suite.api.call(routes.deleteTransfer, { params: { id: a.transferId }, as: sender }));
    const afterDelete = await suite.api.call(routes.getTransferPackage, { params: { id: a.transferId }, headers: visitor });
    const reopened = await suite.api.call(routes.openTransferLink, { params: { id: a.transferId }, body: { key: a.key } });

    // Assess
    expectError(other, 401);
    expectError(otherFile, 401);
    expectError(afterDelete, 404);
    expectError(reopened, 404);
  });

  it('shows anyone the tally, lets a signed-in visitor vote as themselves and asks an anonymous one to log in', async () => {
    // Prepare
    const transfer = await linkTransfer(sender);
    const fileId = transfer.fileIds[0] ?? '';
    const voter = await suite.api.signIn('link-voter');
    const anonymous = await openAsVisitor(transfer);
    const signedIn = await openAsVisitor(transfer, voter);

    // Act
    const liked = await suite.api.call(routes.likeTransferFile, {
      params: { id: transfer.transferId, relationId: fileId, status: 'on' },
      headers: signedIn,
      as: voter,
    });
    const anonymousLike = await suite.api.call(routes.likeTransferFile, {
      params: { id: transfer.transferId, relationId: fileId, status: 'on' },
      headers: anonymous,
    });
    const seen = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, headers: anonymous });
    const anonymousVotes = await suite.api.call(routes.listMyVotes, { params: { id: transfer.transferId }, headers: anonymous });
    const voterVotes = await suite.api.call(routes.listMyVotes, {
      params: { id: transfer.transferId },
      headers: signedIn,
      as: voter,
    });

    // Assess
    expectOk(liked);
    expect(liked.body.file).toMatchObject({ likes: 1, myVote: 'like' });
    expectError(anonymousLike, 401);
    expect(anonymousLike.body.message).toContain('Log in');
    expectOk(seen);
    expect(seen.body.files[0]).toMatchObject({ likes: 1, myVote: null });
    expectOk(anonymousVotes);
    expect(anonymousVotes.body.votes).toEqual({});
    expectOk(voterVotes);
    expect(voterVotes.body.votes).toEqual({ [fileId]: 'like' });
  });

  it('still emails recipients added to it, who open it as before', async () => {
    // Prepare
    const recipient = await suite.api.signIn('link-recipient');

    // Act
    const transfer = await linkTransfer(sender, { recipients: [recipient.email] });
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, as: recipient });

    // Assess
    expect(transfer.link).not.toBe('');
    expectOk(pkg);
    const mails = await mailsTo(suite.runtime.mailDir, recipient.email);
    expect(mails.some((mail) => (mail.text ?? '').includes(`/transfer/${transfer.transferId}/package#invite=`))).toBe(true);
  });
});

describe('a download limit', () => {
  let sender: SignedInUser;

  beforeAll(async () => {
    sender = await suite.api.signIn('limit-sender');
  });

  it('refuses a limit outside 1 to 1000', async () => {
    // Act
    const zero = await suite.api.call(routes.createTransfer, { body: { downloadLimit: 0 }, as: sender });
    const tooMany = await suite.api.call(routes.createTransfer, { body: { downloadLimit: 1001 }, as: sender });

    // Assess
    expectError(zero, 400);
    expectError(tooMany, 400);
  });

  it('serves exactly N of 20 parallel downloads, refuses the rest with 410, and tells the sender once', async () => {
    // Prepare
    const limit = 5;
    const transfer = await linkTransfer(sender, { downloadLimit: limit, title: 'Limited edition' });
    const visitors = await Promise.all(Array.from({ length: 20 }, () => openAsVisitor(transfer)));

    // Act
    const answers = await Promise.all(
      visitors.map((headers) => suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[0] ?? '' }, headers })),
    );
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, headers: visitors[0] });
    const own = await suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[0] ?? '' }, as: sender });

    // Assess
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(limit);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(20 - limit);
    for (const answer of refused) {
      expectError(answer, 410);
      expect(answer.body.message).toContain('This transfer has reached its download limit');
      expect(answer.body).toMatchObject({ code: 'DOWNLOAD_LIMIT_REACHED', downloadLimit: limit });
    }
    expectOk(pkg);
    expect(pkg.body.transfer).toMatchObject({ downloadLimit: limit, downloadCount: limit });
    expectOk(own);
    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: sender });
    expectOk(notifications);
    expect(notifications.body.items.filter((item) => item.kind === 'transfer-download-limit-reached')).toEqual([
      expect.objectContaining({ object: expect.objectContaining({ id: transfer.transferId }) }),
    ]);
    const mails = await mailsTo(suite.runtime.mailDir, sender.email);
    expect(mails.filter((mail) => (mail.headers.subject ?? '').includes('reached its download limit'))).toHaveLength(1);
  });

  it("counts a visitor's repeated download of the same file within the hour once, and the zip as one", async () => {
    // Prepare
    const transfer = await linkTransfer(sender, { files: 2, downloadLimit: 3 });
    const visitor = await openAsVisitor(transfer);
    const other = await openAsVisitor(transfer);
    const [first, second] = transfer.fileIds as [string, string];

    // Act
    const once = await suite.api.call(routes.downloadFile, { params: { id: first }, headers: visitor });
    const again = await suite.api.call(routes.downloadFile, { params: { id: first }, headers: visitor });
    const afterRepeat = await suite.api.call(routes.getTransferPackage, {
      params: { id: transfer.transferId },
      headers: visitor,
    });
    const zip = await suite.api.call(routes.downloadAllFiles, { params: { id: transfer.transferId }, headers: visitor });
    const otherFile = await suite.api.call(routes.downloadFile, { params: { id: second }, headers: other });
    const overLimit = await suite.api.call(routes.downloadFile, { params: { id: first }, headers: other });
    const resumed = await suite.api.call(routes.downloadFile, { params: { id: first }, headers: visitor });

    // Assess
    expectOk(once);
    expectOk(again);
    expectOk(afterRepeat);
    expect(afterRepeat.body.transfer.downloadCount).toBe(1);
    expectOk(zip);
    expectOk(otherFile);
    expectError(overLimit, 410);
    expectOk(resumed);
  });
  it('lets visitors preview without counting, and serves no preview once the limit is spent', async () => {
    // Prepare
    const transfer = await linkTransfer(sender, { downloadLimit: 1 });
    const looker = await openAsVisitor(transfer);
    const downloader = await openAsVisitor(transfer);
    const fileId = transfer.fileIds[0] ?? '';

    // Act
    const preview = await suite.api.call(routes.previewFile, { params: { id: fileId }, headers: looker });
    const thumbnail = await suite.api.call(routes.downloadFile, {
      params: { id: fileId },
      query: { disposition: 'inline' },
      headers: looker,
    });
    const afterViews = await suite.api.call(routes.getTransferPackage, { params: { id: transfer.transferId }, headers: looker });
    const download = await suite.api.call(routes.downloadFile, { params: { id: fileId }, headers: downloader });
    const previewAfter = await suite.api.call(routes.previewFile, { params: { id: fileId }, headers: looker });
    const thumbnailAfter = await suite.api.call(routes.downloadFile, {
      params: { id: fileId },
      query: { disposition: 'inline' },
      headers: looker,
    });
    const sendersOwn = await suite.api.call(routes.previewFile, { params: { id: fileId }, as: sender });

    // Assess: views took nothing from the one download; once it is taken, nothing more is served but to the sender
    expectOk(preview);
    expectOk(thumbnail);
    expectOk(afterViews);
    expect(afterViews.body.transfer.downloadCount).toBe(0);
    expectOk(download);
    for (const refused of [previewAfter, thumbnailAfter]) {
      expectError(refused, 410);
      expect(refused.body).toMatchObject({ code: 'DOWNLOAD_LIMIT_REACHED' });
    }
    expectOk(sendersOwn);
  });
});

describe("a transfer's download log", () => {
  it('shows its sender each download (when, which file, who) a page at a time, and nobody else', async () => {
    // Prepare
    const [sender, stranger, reader] = (await Promise.all(
      ['log-sender', 'log-stranger', 'log-reader'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser, SignedInUser];
    const transfer = await linkTransfer(sender, { files: 2 });
    const anonymous = await openAsVisitor(transfer);
    const signedIn = await openAsVisitor(transfer, reader);
    expectOk(await suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[0] ?? '' }, headers: anonymous }));
    expectOk(
      await suite.api.call(routes.downloadAllFiles, { params: { id: transfer.transferId }, headers: signedIn, as: reader }),
    );
    // More than a page: 50 more visitors each take the second file.
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const headers = await openAsVisitor(transfer);
          expectOk(await suite.api.call(routes.downloadFile, { params: { id: transfer.fileIds[1] ?? '' }, headers }));
        }),
      );
    }

    // Act
    const firstPage = await suite.api.call(routes.listTransferDownloads, { params: { id: transfer.transferId }, as: sender });
    expectOk(firstPage);
    const secondPage = await suite.api.call(routes.listTransferDownloads, {
      params: { id: transfer.transferId },
      query: { cursor: firstPage.body.cursor ?? '' },
      as: sender,
    });
    const strangers = await suite.api.call(routes.listTransferDownloads, { params: { id: transfer.transferId }, as: stranger });
    const visitors = await suite.api.call(routes.listTransferDownloads, {
      params: { id: transfer.transferId },
      headers: anonymous,
    });
    const signedInVisitor = await suite.api.call(routes.listTransferDownloads, {
      params: { id: transfer.transferId },
      headers: signedIn,
      as: reader,
    });
    const unknown = await suite.api.call(routes.listTransferDownloads, { params: { id: 'nosuchtransfer00' }, as: stranger });

    // Assess
    expect(firstPage.body.downloads).toHaveLength(50);
    expect(firstPage.body.cursor).not.toBeNull();
    expectOk(secondPage);
    expect(secondPage.body.cursor).toBeNull();
    const all = [...firstPage.body.downloads, ...secondPage.body.downloads];
    expect(all).toHaveLength(52);
    const times = all.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    const { data: readerUser } = await getDb().entities.user.get({ userId: reader.userId }).go();
    expect(all.slice(-2)).toEqual([
      {
        at: expect.any(String),
        fileId: 'all',
        fileName: 'All files',
        downloader: 'user',
        name: readerUser?.name || reader.username,
        userId: reader.userId,
      },
      {
        at: expect.any(String),
        fileId: transfer.fileIds[0],
        fileName: 'file-0.txt',
        downloader: 'anonymous',
        name: null,
        userId: null,
      },
    ]);
    expectError(strangers, 404);
    expect(strangers.body).toEqual(unknown.body);
    expectError(visitors, 401);
    expectError(signedInVisitor, 404);
  });
});

describe("a draft's delivery chosen again", () => {
  let sender: SignedInUser;
  let stranger: SignedInUser;

  beforeAll(async () => {
    [sender, stranger] = (await Promise.all(
      ['redeliver-sender', 'redeliver-stranger'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser];
  });

  /** A draft sent by email with one small ready file: what a failed send leaves. */
  async function emailDraft() {
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Tried once' }, as: sender });
    expectOk(created, 201);
    const bytes = patternedBytes(300);
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId: created.body.id, name: 'notes.txt', size: bytes.length, type: 'text/plain' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, bytes, 'text/plain')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    return created.body.id;
  }

  it('turns an email draft into a link with a limit, which the send then honours, and back again', async () => {
    // Prepare
    const id = await emailDraft();

    // Act
    const toLink = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: 2 },
      as: sender,
    });
    const unlimited = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: null },
      as: sender,
    });
    const limited = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: 1 },
      as: sender,
    });
    const sent = await suite.api.call(routes.finalizeTransfer, { params: { id }, as: sender });

    // Assess
    expectOk(toLink);
    expect(toLink.body).toMatchObject({ status: 'draft', delivery: 'link', downloadLimit: 2, downloadCount: 0 });
    expectOk(unlimited);
    expect(unlimited.body).toMatchObject({ delivery: 'link', downloadLimit: null });
    expectOk(limited);
    // Sent with no recipient: only a link transfer may be, and it carries the limit chosen last.
    expectOk(sent);
    expect(sent.body).toMatchObject({ status: 'sent', delivery: 'link', downloadLimit: 1 });
    expect(sent.body.link).toMatch(new RegExp(`/transfer/${id}/package#key=`));
  });

  it("refuses a bad limit (400), someone else's or an unknown draft (404), and a sent one (409)", async () => {
    // Prepare
    const id = await emailDraft();
    expectOk(await suite.api.call(routes.addRecipient, { params: { id }, body: { email: 'friend@example.com' }, as: sender }));

    // Act
    const tooMany = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: 1001 },
      as: sender,
    });
    const badDelivery = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'pigeon' as 'link', downloadLimit: null },
      as: sender,
    });
    const byStranger = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: null },
      as: stranger,
    });
    const unknown = await suite.api.call(routes.setTransferDelivery, {
      params: { id: 'neverexisted012345678' },
      body: { delivery: 'link', downloadLimit: null },
      as: sender,
    });
    expectOk(await suite.api.call(routes.finalizeTransfer, { params: { id }, as: sender }));
    const afterSend = await suite.api.call(routes.setTransferDelivery, {
      params: { id },
      body: { delivery: 'link', downloadLimit: 3 },
      as: sender,
    });
    const view = await suite.api.call(routes.getTransfer, { params: { id }, as: sender });

    // Assess
    expectError(tooMany, 400);
    expect(JSON.stringify(tooMany.body)).toContain('Allow at most 1000 downloads');
    expectError(badDelivery, 400);
    expectError(byStranger, 404);
    expectError(unknown, 404);
    expect(byStranger.body.message).toBe(unknown.body.message);
    expectError(afterSend, 409);
    expectOk(view);
    expect(view.body.transfer).toMatchObject({ status: 'sent', delivery: 'email', downloadLimit: null });
  });
});
