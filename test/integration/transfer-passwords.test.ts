import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { apiSuite } from '../support/api-suite';
import { type Answer, expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { subscribeToPro } from '../support/payments';
import { patternedBytes, postUpload, sentTransfer } from '../support/transfers';
import type { RouteDefinition } from '../../shared/routes/define-route';

const suite = apiSuite();

const PASSWORD = 'correct horse battery';
const TITLE = 'Merger documents';
const FILE_NAME = 'board-minutes-2026.txt';
const FILE_BYTES = patternedBytes(4_321);

/** The cookies an answer set, as a browser would send them back. */
const cookieHeader = (setCookies: readonly string[]) => setCookies.map((cookie) => cookie.split(';')[0]).join('; ');

/** A locked answer says the transfer needs a password, and nothing of what it holds. */
function expectLocked(answer: Answer<RouteDefinition>, transferId: string) {
  expectError(answer, 403, 'PASSWORD_REQUIRED');
  expect(Object.keys(answer.body).sort()).toEqual(['code', 'message', 'transferId']);
  expect(answer.body).toMatchObject({ transferId });
  const text = answer.text;
  for (const secret of [
    TITLE,
    FILE_NAME,
    'board-minutes',
    String(FILE_BYTES.length),
    '"fileCount"',
    '"files"',
    '"size"',
    '"url"',
  ]) {
    expect(text).not.toContain(secret);
  }
}

describe('passwords on transfers', () => {
  let pro: SignedInUser;
  let free: SignedInUser;
  let recipient: SignedInUser;
  let stranger: SignedInUser;

  beforeAll(async () => {
    [pro, free, recipient, stranger] = (await Promise.all(
      ['pw-pro', 'pw-free', 'pw-recipient', 'pw-stranger'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser, SignedInUser, SignedInUser];
    await subscribeToPro(suite.api, pro);
  });

  /** A protected transfer from the Pro sender to the recipient (and any other addresses). */
  const protectedTransfer = (recipients: string[] = [recipient.email]) =>
    sentTransfer(suite.api, pro, {
      title: TITLE,
      password: PASSWORD,
      files: [{ name: FILE_NAME, bytes: FILE_BYTES, type: 'text/plain' }],
      recipients,
    });

  it('refuses a password from a Free sender with a 403 that names Pro, on creation and on a draft', async () => {
    // Prepare
    const draft = await suite.api.call(routes.createTransfer, { body: { title: 'Free draft' }, as: free });
    expectOk(draft, 201);

    // Act
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Locked', password: PASSWORD }, as: free });
    const set = await suite.api.call(routes.setTransferPassword, {
      params: { id: draft.body.id },
      body: { password: PASSWORD },
      as: free,
    });

    // Assess
    expectError(created, 403, 'PRO_FEATURE');
    expect(created.body.message).toContain('Pro feature');
    expectError(set, 403, 'PRO_FEATURE');
    const view = await suite.api.call(routes.getTransfer, { params: { id: draft.body.id }, as: free });
    expectOk(view);
    expect(view.body.transfer.passwordProtected).toBeUndefined();
  });

  it('shows the sender "password protected" only, lets them change or remove it while a draft, and not once sent', async () => {
    // Prepare
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Draft', password: PASSWORD }, as: pro });
    expectOk(created, 201);
    const id = created.body.id;

    // Act
    const view = await suite.api.call(routes.getTransfer, { params: { id }, as: pro });
    const removed = await suite.api.call(routes.setTransferPassword, { params: { id }, body: { password: null }, as: pro });
    const tooShort = await suite.api.call(routes.setTransferPassword, { params: { id }, body: { password: 'abc' }, as: pro });
    const changed = await suite.api.call(routes.setTransferPassword, {
      params: { id },
      body: { password: 'another one' },
      as: pro,
    });
    const byStranger = await suite.api.call(routes.setTransferPassword, {
      params: { id },
      body: { password: null },
      as: stranger,
    });
    const { transferId: sentId } = await protectedTransfer();
    const afterSend = await suite.api.call(routes.setTransferPassword, {
      params: { id: sentId },
      body: { password: null },
      as: pro,
    });

    // Assess
    expect(created.body.passwordProtected).toBe(true);
    expectOk(view);
    expect(view.body.transfer.passwordProtected).toBe(true);
    for (const answer of [created, view]) {
      expect(JSON.stringify(answer.body)).not.toContain(PASSWORD);
      expect(JSON.stringify(answer.body)).not.toContain('scrypt');
    }
    expectOk(removed);
    expect(removed.body.passwordProtected).toBeUndefined();
    expectError(tooShort, 400);
    expect(tooShort.body.message).toContain('at least 6 characters');
    expectOk(changed);
    expect(changed.body.passwordProtected).toBe(true);
    expect(JSON.stringify(changed.body)).not.toContain('another one');
    expectError(byStranger, 404);
    expectError(afterSend, 409);
  });

  it('answers a recipient nothing but "password needed" on every package route, and strangers 404', async () => {
    // Prepare
    const { transferId, fileIds } = await protectedTransfer();
    const fileId = fileIds[0] ?? '';
    const as = recipient;

    // Act
    const answers = {
      pkg: await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as }),
      screen: await suite.api.call(routes.showPackageScreen, { params: { id: transferId }, as }),
      votes: await suite.api.call(routes.listMyVotes, { params: { id: transferId }, as }),
      like: await suite.api.call(routes.likeTransferFile, { params: { id: transferId, relationId: fileId, status: 'on' }, as }),
      dislike: await suite.api.call(routes.dislikeTransferFile, {
        params: { id: transferId, recordId: fileId, status: 'on' },
        as,
      }),
      download: await suite.api.call(routes.downloadFile, { params: { id: fileId }, as }),
      thumbnail: await suite.api.call(routes.downloadFile, { params: { id: fileId }, query: { disposition: 'inline' }, as }),
      zip: await suite.api.call(routes.downloadAllFiles, { params: { id: transferId }, as }),
      file: await suite.api.call(routes.getFile, { params: { id: fileId }, as }),
    };
    const strangerPkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: stranger });
    const strangerUnlock = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      as: stranger,
    });

    // Assess
    for (const answer of Object.values(answers)) expectLocked(answer, transferId);
    expectError(strangerPkg, 404);
    expectError(strangerUnlock, 404);
    expect(JSON.stringify(strangerPkg.body)).not.toContain('password');
  });

  it("tells a recipient nothing of a protected transfer's contents in the email or their received list", async () => {
    // Prepare: a recipient of its own, as invitations to one address are a second apart at the
    // least (the earlier tests' transfers invited the suite's recipient moments ago)
    const invited = await suite.api.signIn('pw-invited');
    const { transferId } = await protectedTransfer([invited.email]);

    // Act
    const mails = await mailsTo(suite.runtime.mailDir, invited.email);
    const invite = mails.find((mail) => (mail.text ?? '').includes(`/transfer/${transferId}/package#invite=`));
    const received = await suite.api.call(routes.listReceivedTransfers, { as: invited });
    const own = await suite.api.call(routes.listOwnTransfers, { as: pro });

    // Assess
    expect(invite?.headers.subject).toMatch(/sent you files$/);
    expect(invite?.text).toContain('protected by a password: ask the sender for it');
    for (const secret of [TITLE, FILE_NAME]) {
      expect(invite?.text).not.toContain(secret);
      expect(invite?.html).not.toContain(secret);
    }
    expectOk(received);
    const listed = received.body.transfers.find((transfer) => transfer.id === transferId);
    expect(listed).toMatchObject({ title: '', message: '', fileCount: 0, totalBytes: 0, passwordProtected: true });
    expectOk(own);
    expect(own.body.transfers.find((transfer) => transfer.id === transferId)).toMatchObject({ title: TITLE, fileCount: 1 });
  });

  it('opens the package to its sender without a password', async () => {
    // Prepare
    const { transferId, fileIds } = await protectedTransfer();

    // Act
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: pro });
    const download = await suite.api.call(routes.downloadFile, { params: { id: fileIds[0] ?? '' }, as: pro });

    // Assess
    expectOk(pkg);
    expect(pkg.body.isOwner).toBe(true);
    expect(pkg.body.files.map((file) => file.name)).toEqual([FILE_NAME]);
    expectOk(download);
  });

  it('keeps the emailed link locked too: the link gives its grant, the package waits for the password', async () => {
    // Prepare
    const newcomer = `pw-newcomer-${Date.now()}@example.com`;
    const { transferId } = await protectedTransfer([newcomer]);
    const [mail] = await mailsTo(suite.runtime.mailDir, newcomer);
    const token = /#invite=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';

    // Act
    const accepted = await suite.api.call(routes.acceptTransferInvite, { params: { id: transferId }, body: { token } });
    expectOk(accepted);
    const grant = cookieHeader(accepted.cookies);
    const locked = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, headers: { cookie: grant } });
    const unlocked = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      headers: { cookie: grant },
    });
    expectOk(unlocked);
    const both = `${grant}; ${cookieHeader(unlocked.cookies)}`;
    const opened = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, headers: { cookie: both } });

    // Assess
    expect(accepted.body).toEqual({ passwordRequired: true, transferId, grant: expect.objectContaining({ email: newcomer }) });
    expect(JSON.stringify(accepted.body)).not.toContain(FILE_NAME);
    expect(JSON.stringify(accepted.body)).not.toContain(TITLE);
    expectLocked(locked, transferId);
    expectOk(opened);
    expect(opened.body.files.map((file) => file.name)).toEqual([FILE_NAME]);
  });

  it('refuses a wrong password, and the right one unlocks for the browser holding its cookie only', async () => {
    // Prepare
    const { transferId, fileIds } = await protectedTransfer();
    const fileId = fileIds[0] ?? '';

    // Act
    const wrong = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: 'not it at all' },
      as: recipient,
    });
    const right = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      as: recipient,
    });
    expectOk(right);
    const cookie = cookieHeader(right.cookies);
    const pkg = await suite.api.call(routes.getTransferPackage, {
      params: { id: transferId },
      as: recipient,
      headers: { cookie },
    });
    const download = await suite.api.call(routes.downloadFile, { params: { id: fileId }, as: recipient, headers: { cookie } });
    const zip = await suite.api.call(routes.downloadAllFiles, { params: { id: transferId }, as: recipient, headers: { cookie } });
    const liked = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'on' },
      as: recipient,
      headers: { cookie },
    });
    const votes = await suite.api.call(routes.listMyVotes, { params: { id: transferId }, as: recipient, headers: { cookie } });
    const file = await suite.api.call(routes.getFile, { params: { id: fileId }, as: recipient, headers: { cookie } });
    const otherBrowser = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: recipient });
    const forged = await suite.api.call(routes.getTransferPackage, {
      params: { id: transferId },
      as: recipient,
      headers: { cookie: `tpu_${transferId}=${'A'.repeat(43)}` },
    });

    // Assess
    expectError(wrong, 403, 'WRONG_PASSWORD');
    expect(wrong.body.message).toBe('That password is not right.');
    expect(right.cookies).toEqual([
      expect.stringMatching(new RegExp(`^tpu_${transferId}=[^;]+; Path=/api/i/; HttpOnly; Secure; SameSite=Lax; Max-Age=43200$`)),
    ]);
    const hours = (Date.parse(right.body.unlockedUntil) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    expectOk(pkg);
    expect(pkg.body.files.map((item) => item.name)).toEqual([FILE_NAME]);
    expect(pkg.body.transfer.title).toBe(TITLE);
    expectOk(download);
    expect(Buffer.from(await (await fetch(download.body.url)).arrayBuffer()).equals(FILE_BYTES)).toBe(true);
    expectOk(zip);
    expectOk(liked);
    expectOk(votes);
    expect(votes.body.votes).toEqual({ [fileId]: 'like' });
    expectOk(file);
    expectLocked(otherBrowser, transferId);
    expectLocked(forged, transferId);
  });

  it('compares at most the limit of 50 parallel guesses and answers the rest 429 with the wait', async () => {
    // Prepare
    const { transferId } = await protectedTransfer();

    // Act
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        suite.api.call(routes.unlockTransferPackage, {
          params: { id: transferId },
          body: { password: `guess number ${index}` },
          as: recipient,
        }),
      ),
    );
    const rightAfter = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      as: recipient,
    });

    // Assess
    const compared = guesses.filter((answer) => answer.status === 403);
    const limited = guesses.filter((answer) => answer.status === 429);
    expect(compared.length).toBe(5);
    expect(limited.length).toBe(45);
    for (const answer of compared) expectError(answer, 403, 'WRONG_PASSWORD');
    for (const answer of [...limited, rightAfter]) {
      expectError(answer, 429, 'RATE_LIMITED');
      expect(answer.body.message).toMatch(/^Too many wrong passwords\. Try again in \d+ (minutes?|seconds?)\.$/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    }
    expect(rightAfter.cookies).toEqual([]);
  });

  it('still answers 410 once a protected transfer has expired, before any password', async () => {
    // Prepare
    const { transferId } = await protectedTransfer();
    await getDb().entities.transfer.patch({ transferId }).set({ availableUntil: '2026-01-02T00:00:00.000Z' }).go();

    // Act
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: recipient });
    const unlock = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      as: recipient,
    });

    // Assess
    expectError(pkg, 410, 'GONE');
    expect(pkg.body.message).toContain('2026-01-02');
    expectError(unlock, 410, 'GONE');
  });
  it('keeps a link transfer locked too: its link gives the grant but no file, and previews wait for the password', async () => {
    // Prepare: a protected link transfer, no recipients
    const created = await suite.api.call(routes.createTransfer, {
      body: { title: TITLE, delivery: 'link', password: PASSWORD },
      as: pro,
    });
    expectOk(created, 201);
    const transferId = created.body.id;
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: FILE_NAME, size: FILE_BYTES.length, type: 'text/plain' },
      as: pro,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, FILE_BYTES, 'text/plain')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: pro }));
    const sent = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: pro });
    expectOk(sent);
    const key = new URL(sent.body.link ?? '').hash.replace(/^#key=/, '');
    const fileId = record.body.file.id;

    // Act
    const opened = await suite.api.call(routes.openTransferLink, { params: { id: transferId }, body: { key } });
    const grant = { cookie: cookieHeader(opened.cookies) };
    const lockedPreview = await suite.api.call(routes.previewFile, { params: { id: fileId }, headers: grant });
    const unlocked = await suite.api.call(routes.unlockTransferPackage, {
      params: { id: transferId },
      body: { password: PASSWORD },
      headers: grant,
    });
    const both = { cookie: `${grant.cookie}; ${cookieHeader(unlocked.cookies)}` };
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, headers: both });
    const preview = await suite.api.call(routes.previewFile, { params: { id: fileId }, headers: both });

    // Assess
    expectOk(opened);
    expect(opened.body).toEqual({ passwordRequired: true, transferId, grant: { expiresAt: expect.any(String) } });
    for (const secret of [TITLE, FILE_NAME, String(FILE_BYTES.length)]) expect(opened.text).not.toContain(secret);
    expect(opened.cookies).toEqual([expect.stringMatching(new RegExp(`^tpg_${transferId}=`))]);
    expectLocked(lockedPreview, transferId);
    expectOk(unlocked);
    expectOk(pkg);
    expect(pkg.body.files.map((file) => file.name)).toEqual([FILE_NAME]);
    expectOk(preview);
  });
});
