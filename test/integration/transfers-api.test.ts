import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import { MIB } from '../../shared/transfers/upload-sizing';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { patternedBytes, postUpload, putParts, sentTransfer } from '../support/transfers';

const suite = apiSuite();
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('a transfer from draft to package', () => {
  let sender: SignedInUser;
  let recipient: SignedInUser;
  let stranger: SignedInUser;
  let transferId: string;
  const small = patternedBytes(1_500);
  const large = patternedBytes(20 * MIB, 3);

  beforeAll(async () => {
    [sender, recipient, stranger] = (await Promise.all(
      ['sender', 'recipient', 'stranger'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser, SignedInUser];
  });

  it("creates a draft that lasts the free plan's default 7 days, and refuses longer", async () => {
    // Act
    const created = await suite.api.call(routes.createTransfer, {
      body: { title: 'Q3 designs', message: 'Have a look' },
      as: sender,
    });
    const tooLong = await suite.api.call(routes.createTransfer, { body: { expiresInDays: 30 }, as: sender });

    // Assess
    expectOk(created, 201);
    transferId = created.body.id;
    expect(created.body).toMatchObject({ title: 'Q3 designs', status: 'draft', fileCount: 0, expired: false });
    const days = (Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    expectError(tooLong, 400);
    expect(tooLong.body.message).toContain('at most 7 days');
  });

  it('takes a small file by presigned POST straight to storage and checks it at finalize', async () => {
    // Prepare
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'notes.txt', size: small.length, type: 'text/plain' },
      as: sender,
    });
    expectOk(record, 201);
    expect(record.body.upload.method).toBe('post');

    // Act
    const uploaded = await postUpload(record.body, small, 'text/plain');
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });

    // Assess
    expect(uploaded.status).toBe(204);
    expectOk(finalized);
    expect(finalized.body.file).toMatchObject({ status: 'ready', size: small.length, type: 'text/plain', checksum: md5(small) });
  });

  it('signs upload forms for 15 minutes, and a new one for a single-upload file whose form ran out, for nothing else', async () => {
    // Prepare
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'later.txt', size: small.length, type: 'text/plain' },
      as: sender,
    });
    expectOk(record, 201);
    const parts = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'parts.bin', size: 20 * MIB, type: 'application/octet-stream' },
      as: sender,
    });
    expectOk(parts, 201);

    // Act
    const signed = await suite.api.call(routes.signUploadForm, { params: { id: record.body.file.id }, as: sender });
    expectOk(signed);
    const uploaded = await postUpload(signed.body, small, 'text/plain');
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });
    const forReady = await suite.api.call(routes.signUploadForm, { params: { id: record.body.file.id }, as: sender });
    const forParts = await suite.api.call(routes.signUploadForm, { params: { id: parts.body.file.id }, as: sender });
    const byStranger = await suite.api.call(routes.signUploadForm, { params: { id: record.body.file.id }, as: stranger });

    // Assess
    for (const target of [record.body.upload, signed.body.upload]) {
      if (target.method !== 'post') throw new Error('expected a form');
      const minutes = (Date.parse(target.expiresAt) - Date.parse(record.body.file.createdAt)) / 60_000;
      expect(minutes).toBeGreaterThanOrEqual(15);
      expect(minutes).toBeLessThan(16);
    }
    expect(uploaded.status).toBe(204);
    expectOk(finalized);
    expectError(forReady, 409);
    expectError(forParts, 409);
    expectError(byStranger, 404);
    expectOk(await suite.api.call(routes.abortUpload, { params: { id: parts.body.file.id }, as: sender }));
    expectOk(await suite.api.call(routes.deleteFile, { params: { id: record.body.file.id }, as: sender }));
  });

  it('refuses a POST of other bytes than declared, at storage, and keeps nothing', async () => {
    // Prepare
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'short.txt', size: 100, type: 'text/plain' },
      as: sender,
    });
    expectOk(record, 201);

    // Act
    const tooBig = await postUpload(record.body, patternedBytes(101), 'text/plain');
    const otherType = await postUpload(record.body, patternedBytes(100), 'text/html', { 'Content-Type': 'text/html' });
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });

    // Assess
    expect(tooBig.status).toBe(400);
    expect(otherType.status).toBe(403);
    expectError(finalized, 409);
    expect(finalized.body.message).toContain('has not been uploaded yet');
    expectOk(await suite.api.call(routes.deleteFile, { params: { id: record.body.file.id }, as: sender }));
  });

  it('uploads a large file in parts, resumes from the parts storage holds, and completes it at finalize', async () => {
    // Prepare
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'video.mp4', size: large.length, type: 'video/mp4', lastModified: 1_700_000_000_000 },
      as: sender,
    });
    expectOk(record, 201);
    expect(record.body.upload).toEqual({ method: 'multipart', partSize: 8 * MIB, partCount: 3 });
    const fileId = record.body.file.id;

    // Act: two parts, then "a reload": list, finalize too early, send the missing one, finalize.
    await putParts(suite.api, sender, record.body, large, [1, 2]);
    const listed = await suite.api.call(routes.listUploadedParts, { params: { id: fileId }, as: sender });
    const early = await suite.api.call(routes.finalizeBRecord, { params: { id: fileId }, as: sender });
    await putParts(suite.api, sender, record.body, large, [3]);
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: fileId }, as: sender });
    const again = await suite.api.call(routes.finalizeBRecord, { params: { id: fileId }, as: sender });

    // Assess
    expectOk(listed);
    expect(listed.body.parts.map((part) => [part.partNumber, part.size])).toEqual([
      [1, 8 * MIB],
      [2, 8 * MIB],
    ]);
    expectError(early, 409);
    expect(early.body.message).toContain('1 of 3 parts have not arrived');
    expectOk(finalized);
    expect(finalized.body.file).toMatchObject({ status: 'ready', size: large.length });
    expect(finalized.body.file.checksum).toMatch(/-3$/);
    expectOk(again);
    expect(again.body.file.readyAt).toBe(finalized.body.file.readyAt);
  });

  it('deletes a multipart upload whose bytes do not match what was declared, and says why', async () => {
    // Prepare: declared 20 MiB, sent 3 parts of which the last is short.
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'cut.bin', size: 20 * MIB, type: 'application/octet-stream' },
      as: sender,
    });
    expectOk(record, 201);
    await putParts(suite.api, sender, record.body, patternedBytes(20 * MIB - 10), [1, 2, 3]);

    // Act
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });
    const after = await suite.api.call(routes.getFile, { params: { id: record.body.file.id }, as: sender });

    // Assess
    expectError(finalized, 400, 'UPLOAD_REJECTED');
    expect(finalized.body.message).toContain('not the 20971520 declared');
    expectError(after, 404);
  });

  it('refuses parts that storage will not join, one but the last under 5 MiB, with 400 and the reason', async () => {
    // Prepare: declared 20 MiB in three parts of 8 MiB; part 1 is sent with 1 MiB only.
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'small-parts.bin', size: 20 * MIB, type: 'application/octet-stream' },
      as: sender,
    });
    expectOk(record, 201);
    await putParts(suite.api, sender, record.body, patternedBytes(20 * MIB), [2, 3]);
    const signed = await suite.api.call(routes.signUploadParts, {
      params: { id: record.body.file.id },
      body: { partNumbers: [1] },
      as: sender,
    });
    expectOk(signed);
    const small = await fetch(signed.body.parts[0]?.url ?? '', { method: 'PUT', body: new Uint8Array(patternedBytes(MIB)) });
    expect(small.status).toBe(200);

    // Act
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });
    const after = await suite.api.call(routes.getFile, { params: { id: record.body.file.id }, as: sender });

    // Assess
    expectError(finalized, 400, 'UPLOAD_REJECTED');
    expect(finalized.body.message).toContain(`small-parts.bin cannot be put together: part 1 of 3 arrived with ${MIB} bytes`);
    expect(finalized.body.message).toContain('at least 5 MiB');
    expectError(after, 404);
  });

  it("refuses programs, sizes over the plan, and other people's transfers and files", async () => {
    // Act
    const program = await suite.api.call(routes.createBRecord, { body: { transferId, name: 'setup.exe', size: 10 }, as: sender });
    const overPlan = await suite.api.call(routes.createFiles, {
      body: {
        transferId,
        files: [
          { name: 'a.bin', size: 1_500_000_000 },
          { name: 'b.bin', size: 600_000_000 },
        ],
      },
      as: sender,
    });
    const intoOthers = await suite.api.call(routes.createBRecord, { body: { transferId, name: 'x.txt', size: 1 }, as: stranger });
    const view = await suite.api.call(routes.getTransfer, { params: { id: transferId }, as: stranger });
    const files = await suite.api.call(routes.getTransfer, { params: { id: transferId }, as: sender });
    expectOk(files);
    const someFile = files.body.files[0]?.id ?? '';
    const othersFile = await suite.api.call(routes.getFile, { params: { id: someFile }, as: stranger });
    const deleteOthers = await suite.api.call(routes.deleteFile, { params: { id: someFile }, as: stranger });
    const finalizeOthers = await suite.api.call(routes.finalizeBRecord, { params: { id: someFile }, as: stranger });
    const finalizeTransferOthers = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: stranger });

    // Assess
    expectError(program, 400);
    expect(program.body.message).toContain('programs and installers');
    expectError(overPlan, 400);
    expect(overPlan.body.message).toContain('at most 2 GB');
    for (const answer of [intoOthers, view, othersFile, deleteOthers, finalizeOthers, finalizeTransferOthers])
      expectError(answer, 404);
    // Nothing of that reached the transfer.
    expect(files.body.transfer.fileCount).toBe(2);
  });

  it('sends only once every file is ready, to every recipient, and then stops growing', async () => {
    // Prepare
    const pending = await suite.api.call(routes.createBRecord, { body: { transferId, name: 'late.txt', size: 5 }, as: sender });
    expectOk(pending, 201);
    expectOk(
      await suite.api.call(routes.addRecipient, { params: { id: transferId }, body: { email: recipient.email }, as: sender }),
    );
    const newcomer = `newcomer-${Date.now()}@example.com`;
    expectOk(
      await suite.api.call(routes.addRecipient, {
        params: { id: transferId },
        body: { email: newcomer.toUpperCase() },
        as: sender,
      }),
    );

    // Act
    const blocked = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender });
    expectOk(await suite.api.call(routes.deleteFile, { params: { id: pending.body.file.id }, as: sender }));
    const sent = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender });
    const twice = await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender });
    const grow = await suite.api.call(routes.createBRecord, { body: { transferId, name: 'more.txt', size: 5 }, as: sender });
    const timing = await suite.api.call(routes.recordFinalizeTiming, {
      params: { id: transferId },
      body: { elapsedMs: 1234 },
      as: sender,
    });

    // Assess
    expectError(blocked, 409);
    expect(blocked.body.message).toContain('late.txt');
    expectOk(sent);
    expect(sent.body).toMatchObject({ status: 'sent', fileCount: 2, recipientCount: 2 });
    expectError(twice, 409);
    expectError(grow, 409);
    expectOk(timing);
    expect(timing.body.sendTimingMs).toBe(1234);
    const invites = await mailsTo(suite.runtime.mailDir, newcomer);
    expect(invites).toHaveLength(1);
    expect(invites[0]?.headers.subject).toContain('Q3 designs');
    // From the transfers sender (MAIL_FROM's name at transfers@), listing the files it carries.
    expect(invites[0]?.headers.from).toBe('TopPubs <transfers@toppubs.example>');
    expect(invites[0]?.text).toContain('notes.txt (');
    expect(invites[0]?.text).toContain('They can be downloaded until ');
    expect(await mailsTo(suite.runtime.mailDir, recipient.email)).toHaveLength(1);
  });

  it('opens the package to a newcomer through the emailed link, once, without signing them in', async () => {
    // Prepare
    const view = await suite.api.call(routes.getTransfer, { params: { id: transferId }, as: sender });
    expectOk(view);
    const newcomer = view.body.members.find((member) => member.email.startsWith('newcomer-'))?.email ?? '';
    const [mail] = await mailsTo(suite.runtime.mailDir, newcomer);
    const token = /#invite=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';

    // Act
    const accepted = await suite.api.call(routes.acceptTransferInvite, { params: { id: transferId }, body: { token } });
    const reused = await suite.api.call(routes.acceptTransferInvite, { params: { id: transferId }, body: { token } });

    // Assess
    expectOk(accepted);
    expect(accepted.cookies.some((cookie) => cookie.startsWith('ssoat='))).toBe(false);
    expect(accepted.cookies).toEqual([
      expect.stringMatching(new RegExp(`^tpg_${transferId}=[^;]+; Path=/api/i/; HttpOnly; Secure; SameSite=Lax`)),
    ]);
    if (!('files' in accepted.body)) throw new Error('The package was not answered');
    expect(accepted.body.files.map((file) => file.name)).toEqual(['notes.txt', 'video.mp4']);
    expect(accepted.body.isOwner).toBe(false);
    expect(accepted.body.grant).toMatchObject({ email: newcomer, accountCreated: true });
    expectError(reused, 400);
    expect(reused.body.message).toContain('already used');
  });

  it('lets recipients vote, one vote per file that toggles, and nobody else', async () => {
    // Prepare
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: recipient });
    expectOk(pkg);
    const fileId = pkg.body.files[0]?.id ?? '';

    // Act
    const liked = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'on' },
      as: recipient,
    });
    const likedAgain = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'on' },
      as: recipient,
    });
    const disliked = await suite.api.call(routes.dislikeTransferFile, {
      params: { id: transferId, recordId: fileId, status: 'on' },
      as: recipient,
    });
    const votes = await suite.api.call(routes.listMyVotes, { params: { id: transferId }, as: recipient });
    const badStatus = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'maybe' as 'on' },
      as: recipient,
    });
    const byStranger = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'on' },
      as: stranger,
    });
    const bySender = await suite.api.call(routes.likeTransferFile, {
      params: { id: transferId, relationId: fileId, status: 'on' },
      as: sender,
    });
    const strangerPackage = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: stranger });
    // Read before the votes above, and right after them: each vote shows at once, to everyone.
    const sendersPackage = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: sender });
    const votersPackage = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: recipient });
    const votersScreen = await suite.api.call(routes.showPackageScreen, { params: { id: transferId }, as: recipient });
    const sendersScreen = await suite.api.call(routes.showPackageScreen, { params: { id: transferId }, as: sender });

    // Assess
    expect(pkg.body.files[0]).toMatchObject({ likes: 0, dislikes: 0, myVote: null });
    expectOk(sendersPackage);
    expect(sendersPackage.body.files[0]).toMatchObject({ id: fileId, likes: 0, dislikes: 1, myVote: null });
    expectOk(votersPackage);
    expect(votersPackage.body.files[0]).toMatchObject({ id: fileId, likes: 0, dislikes: 1, myVote: 'dislike' });
    expectOk(votersScreen);
    expect(votersScreen.body.package).toEqual(votersPackage.body);
    expectOk(sendersScreen);
    expect(sendersScreen.body.package).toEqual(sendersPackage.body);
    expectOk(liked);
    expect(liked.body.file).toMatchObject({ likes: 1, dislikes: 0, myVote: 'like' });
    expectOk(likedAgain);
    expect(likedAgain.body.file.likes).toBe(1);
    expectOk(disliked);
    expect(disliked.body.file).toMatchObject({ likes: 0, dislikes: 1, myVote: 'dislike' });
    expectOk(votes);
    expect(votes.body.votes).toEqual({ [fileId]: 'dislike' });
    expectError(badStatus, 400);
    expectError(byStranger, 404);
    expectError(bySender, 403);
    expectError(strangerPackage, 404);
  });

  it('downloads a file under its name with the bytes sent, and gives the sender one receipt', async () => {
    // Prepare
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: recipient });
    expectOk(pkg);
    const video = pkg.body.files.find((file) => file.name === 'video.mp4');

    // Act
    const link = await suite.api.call(routes.downloadFile, { params: { id: video?.id ?? '' }, as: recipient });
    expectOk(link);
    const response = await fetch(link.body.url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    await suite.api.call(routes.downloadFile, { params: { id: video?.id ?? '' }, as: recipient });
    const all = await suite.api.call(routes.downloadAllFiles, { params: { id: transferId }, as: recipient });
    const strangerLink = await suite.api.call(routes.downloadFile, { params: { id: video?.id ?? '' }, as: stranger });
    const members = await suite.api.call(routes.listTransferMembers, { params: { id: transferId }, as: sender });

    // Assess
    expect(response.headers.get('content-disposition')).toContain('filename="video.mp4"');
    expect(md5(bytes)).toBe(md5(large));
    expectOk(all);
    expect(all.body.name).toBe('Q3 designs.zip');
    expect(all.body.files.map((file) => file.name)).toEqual(['notes.txt', 'video.mp4']);
    expectError(strangerLink, 404);
    expectOk(members);
    const seen = members.body.members.find((member) => member.email === recipient.email);
    expect(seen?.firstDownloadAt).not.toBeNull();
    expect(seen?.downloads.map((download) => download.fileId)).toEqual([video?.id, video?.id, 'all']);
    const senderMail = await mailsTo(suite.runtime.mailDir, sender.email);
    expect(senderMail.filter((mail) => (mail.headers.subject ?? '').includes('downloaded'))).toHaveLength(1);
    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: sender });
    expectOk(notifications);
    expect(notifications.body.items.filter((item) => item.kind === 'transfer-downloaded')).toEqual([
      expect.objectContaining({ app: 'transfer', object: expect.objectContaining({ type: 'transfer', id: transferId }) }),
    ]);
  });

  it('emails a recipient added after the send at once, and lets them in', async () => {
    // Prepare
    const late = await suite.api.signIn('late');

    // Act
    const added = await suite.api.call(routes.addRecipient, {
      params: { id: transferId },
      body: { email: late.email },
      as: sender,
    });
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: transferId }, as: late });
    const notified = await suite.api.call(routes.listUnseenNotifications, { as: late });

    // Assess
    expectOk(added);
    expect(added.body.member.notifiedAt).not.toBeNull();
    expect(await mailsTo(suite.runtime.mailDir, late.email)).toHaveLength(1);
    expectOk(pkg);
    expect(pkg.body.files).toHaveLength(2);
    expectOk(notified);
    expect(notified.body.items.map((item) => item.kind)).toContain('transfer-received');
  });

  it("refuses to sign, list or cancel the upload of someone else's file", async () => {
    // Prepare
    const draft = await suite.api.call(routes.createTransfer, { body: {}, as: sender });
    expectOk(draft, 201);
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId: draft.body.id, name: 'big.bin', size: 20 * MIB, type: 'application/octet-stream' },
      as: sender,
    });
    expectOk(record, 201);
    const id = record.body.file.id;

    // Act
    const signed = await suite.api.call(routes.signUploadParts, { params: { id }, body: { partNumbers: [1] }, as: stranger });
    const listed = await suite.api.call(routes.listUploadedParts, { params: { id }, as: stranger });
    const aborted = await suite.api.call(routes.abortUpload, { params: { id }, as: stranger });
    const outOfRange = await suite.api.call(routes.signUploadParts, { params: { id }, body: { partNumbers: [4] }, as: sender });
    const own = await suite.api.call(routes.abortUpload, { params: { id }, as: sender });

    // Assess
    for (const answer of [signed, listed, aborted]) expectError(answer, 404);
    expectError(outOfRange, 400);
    expect(outOfRange.body.message).toContain('has 3 parts');
    expectOk(own);
    expectError(await suite.api.call(routes.getFile, { params: { id }, as: sender }), 404);
  });

  it('lists the transfer for its sender and recipients, and the recipients as contacts', async () => {
    // Act
    const own = await suite.api.call(routes.listOwnTransfers, { as: sender });
    const received = await suite.api.call(routes.listReceivedTransfers, { as: recipient });
    const strangers = await suite.api.call(routes.listReceivedTransfers, { as: stranger });
    const contacts = await suite.api.call(routes.listContacts, { query: { q: 'newc' }, as: sender });

    // Assess
    expectOk(own);
    expect(own.body.transfers.map((transfer) => transfer.id)).toContain(transferId);
    expectOk(received);
    expect(received.body.transfers.map((transfer) => transfer.id)).toEqual([transferId]);
    expectOk(strangers);
    expect(strangers.body.transfers).toEqual([]);
    expectOk(contacts);
    expect(contacts.body.contacts.map((contact) => contact.email)).toEqual([expect.stringMatching(/^newcomer-/)]);
  });

  it('answers 410 with the date once the transfer has expired, though the records are still there', async () => {
    // Prepare: the clock is the transfer's, so move its end into the past.
    const { transferId: expiringId } = await sentTransfer(suite.api, sender, {
      files: [{ name: 'a.txt', bytes: patternedBytes(10), type: 'text/plain' }],
      recipients: [recipient.email],
    });
    await getDb().entities.transfer.patch({ transferId: expiringId }).set({ availableUntil: '2026-01-02T00:00:00.000Z' }).go();

    // Act
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: expiringId }, as: recipient });
    const strangerPkg = await suite.api.call(routes.getTransferPackage, { params: { id: expiringId }, as: stranger });

    // Assess
    expectError(pkg, 410, 'GONE');
    expect(pkg.body.message).toContain('2026-01-02');
    expectError(strangerPkg, 404);
  });

  it('deletes a transfer at once: its package and files are gone for everyone', async () => {
    // Prepare
    const { transferId: doomed, fileIds } = await sentTransfer(suite.api, sender, {
      files: [{ name: 'b.txt', bytes: patternedBytes(10), type: 'text/plain' }],
      recipients: [recipient.email],
    });
    const link = await suite.api.call(routes.downloadFile, { params: { id: fileIds[0] ?? '' }, as: recipient });
    expectOk(link);

    // Act
    const byStranger = await suite.api.call(routes.deleteTransfer, { params: { id: doomed }, as: stranger });
    const deleted = await suite.api.call(routes.deleteTransfer, { params: { id: doomed }, as: sender });
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: doomed }, as: recipient });
    const bytes = await fetch(link.body.url);

    // Assess
    expectError(byStranger, 404);
    expectOk(deleted);
    expectError(pkg, 404);
    expect(bytes.status).toBe(404);
  });
});

describe('what recipients download is what finalize checked', () => {
  let sender: SignedInUser;
  let recipient: SignedInUser;
  // A 1x1 transparent PNG, and HTML of the same length: the upload form pins the size and the type, not the bytes.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const html = Buffer.from('<html><script>alert(document.cookie)</script></html>'.padEnd(png.length, ' '));

  beforeAll(async () => {
    [sender, recipient] = (await Promise.all(
      ['pinning-sender', 'pinning-recipient'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser];
  });

  it("gives recipients the bytes that were checked, though the sender's upload form is used again after finalize and after the send", async () => {
    // Prepare: a PNG uploaded and finalized, then other bytes sent with the same (still valid) form.
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Pinned' }, as: sender });
    expectOk(created, 201);
    const transferId = created.body.id;
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'photo.png', size: png.length, type: 'image/png' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, png, 'image/png')).status).toBe(204);
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender });
    expectOk(finalized);
    const replacedBeforeSend = await postUpload(record.body, html, 'image/png');
    expectOk(
      await suite.api.call(routes.addRecipient, { params: { id: transferId }, body: { email: recipient.email }, as: sender }),
    );
    expectOk(await suite.api.call(routes.finalizeTransfer, { params: { id: transferId }, as: sender }));
    const replacedAfterSend = await postUpload(record.body, html, 'image/png');

    // Act
    const link = await suite.api.call(routes.downloadFile, { params: { id: record.body.file.id }, as: recipient });
    expectOk(link);
    const download = await fetch(link.body.url);
    const all = await suite.api.call(routes.downloadAllFiles, { params: { id: transferId }, as: recipient });
    expectOk(all);
    const zipped = await fetch(all.body.files[0]?.url ?? '');

    // Assess
    expect(replacedBeforeSend.status).toBe(204);
    expect(replacedAfterSend.status).toBe(204);
    expect(finalized.body.file.checksum).toBe(md5(png));
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(png);
    expect(Buffer.from(await zipped.arrayBuffer())).toEqual(png);
  });

  it('serves an image uploaded by file as the PNG that was checked, not the HTML sent over it afterwards', async () => {
    // Prepare
    const record = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'avatar.png', size: png.length, type: 'image/png' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, png, 'image/png')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    expect((await postUpload(record.body, html, 'image/png')).status).toBe(204);

    // Act
    const link = await suite.api.call(routes.downloadFile, {
      params: { id: record.body.file.id },
      query: { disposition: 'inline' },
      as: recipient,
    });
    expectOk(link);
    const image = await fetch(link.body.url);

    // Assess
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
  });

  it('serves a file made ready before final keys existed from the key it was uploaded to', async () => {
    // Prepare: a record as finalize wrote them before, without a final key, its bytes at the upload key.
    const record = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'old.png', size: png.length, type: 'image/png' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, png, 'image/png')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    await getDb().entities.storedFile.patch({ fileId: record.body.file.id }).remove(['finalKey']).go();
    expect((await postUpload(record.body, png, 'image/png')).status).toBe(204);

    // Act
    const link = await suite.api.call(routes.downloadFile, { params: { id: record.body.file.id }, as: recipient });
    expectOk(link);
    const image = await fetch(link.body.url);

    // Assess
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
  });

  it('deletes the bytes recipients read with the file, wherever finalize put them', async () => {
    // Prepare
    const record = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'gone.png', size: png.length, type: 'image/png' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, png, 'image/png')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));
    const link = await suite.api.call(routes.downloadFile, { params: { id: record.body.file.id }, as: sender });
    expectOk(link);

    // Act
    const deleted = await suite.api.call(routes.deleteFile, { params: { id: record.body.file.id }, as: sender });
    const afterwards = await fetch(link.body.url);

    // Assess
    expectOk(deleted);
    expect(afterwards.status).toBe(404);
  });

  it('keeps a multipart file as completed: the part URLs die with the upload, so the bytes stay those checked', async () => {
    // Prepare: parts sent through URLs the test keeps, then the file finalized.
    const large = patternedBytes(20 * MIB, 5);
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Parts' }, as: sender });
    expectOk(created, 201);
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId: created.body.id, name: 'film.mp4', size: large.length, type: 'video/mp4' },
      as: sender,
    });
    expectOk(record, 201);
    const signed = await suite.api.call(routes.signUploadParts, {
      params: { id: record.body.file.id },
      body: { partNumbers: [1, 2, 3] },
      as: sender,
    });
    expectOk(signed);
    const partSize = record.body.upload.method === 'multipart' ? record.body.upload.partSize : 0;
    for (const part of signed.body.parts) {
      const bytes = large.subarray((part.partNumber - 1) * partSize, Math.min(large.length, part.partNumber * partSize));
      expect((await fetch(part.url, { method: 'PUT', body: new Uint8Array(bytes) })).status).toBe(200);
    }
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));

    // Act
    const replaced = await fetch(signed.body.parts[0]?.url ?? '', { method: 'PUT', body: new Uint8Array(partSize).fill(1) });
    const link = await suite.api.call(routes.downloadFile, { params: { id: record.body.file.id }, as: sender });
    expectOk(link);
    const download = new Uint8Array(await (await fetch(link.body.url)).arrayBuffer());

    // Assess
    expect(replaced.status).toBe(404);
    expect(md5(download)).toBe(md5(large));
  });
});

describe('several files at once', () => {
  it('adds files to a draft in one call, each with its upload target, and the draft lists them as pending', async () => {
    // Prepare
    const sender = await suite.api.signIn('batcher');
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Batch' }, as: sender });
    expectOk(created, 201);
    const transferId = created.body.id;
    const notes = patternedBytes(600);

    // Act
    const added = await suite.api.call(routes.createFiles, {
      body: {
        transferId,
        files: [
          { name: 'notes.txt', size: notes.length, type: 'text/plain' },
          { name: 'film.mp4', size: 20 * MIB, type: 'video/mp4' },
        ],
      },
      as: sender,
    });
    const view = await suite.api.call(routes.getTransfer, { params: { id: transferId }, as: sender });

    // Assess
    expectOk(added, 201);
    const [small, big] = added.body.files;
    if (!small || !big) throw new Error('expected two files');
    expect(small.file).toMatchObject({
      name: 'notes.txt',
      transferId,
      size: notes.length,
      status: 'pending',
      uploadMethod: 'post',
    });
    expect(small.upload.method).toBe('post');
    expect(big.file).toMatchObject({
      name: 'film.mp4',
      transferId,
      size: 20 * MIB,
      status: 'pending',
      uploadMethod: 'multipart',
    });
    expect(big.upload).toEqual({ method: 'multipart', partSize: 8 * MIB, partCount: 3 });
    expectOk(view);
    expect(view.body.transfer).toMatchObject({ status: 'draft', fileCount: 2, totalBytes: notes.length + 20 * MIB });
    expect(view.body.files.map((file) => [file.id, file.name, file.status]).sort()).toEqual(
      [
        [small.file.id, 'notes.txt', 'pending'],
        [big.file.id, 'film.mp4', 'pending'],
      ].sort(),
    );
    // The target answered is where the bytes go: the small file arrives and is made ready.
    expect((await postUpload(small, notes, 'text/plain')).status).toBe(204);
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: small.file.id }, as: sender });
    expectOk(finalized);
    expect(finalized.body.file).toMatchObject({ status: 'ready', checksum: md5(notes) });
  });
});

describe('file names', () => {
  let sender: SignedInUser;
  let transferId: string;

  beforeAll(async () => {
    sender = await suite.api.signIn('namer');
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Names' }, as: sender });
    expectOk(created, 201);
    transferId = created.body.id;
  });

  it('stores a name without its right-to-left override and trailing dot, and offers it back so', async () => {
    // Prepare: "photo\u202egnp.html." shows as "photolmth.png." and Windows saves it without the dot.
    const bytes = patternedBytes(20);
    const record = await suite.api.call(routes.createBRecord, {
      body: { transferId, name: 'photo\u202egnp.html.', size: bytes.length, type: 'text/html' },
      as: sender,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, bytes, 'text/html')).status).toBe(204);
    expectOk(await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: sender }));

    // Act
    const stored = await suite.api.call(routes.getFile, { params: { id: record.body.file.id }, as: sender });
    const link = await suite.api.call(routes.downloadFile, { params: { id: record.body.file.id }, as: sender });

    // Assess
    expect(record.body.file.name).toBe('photognp.html');
    expectOk(stored);
    expect(stored.body.file.name).toBe('photognp.html');
    expectOk(link);
    expect(link.body.name).toBe('photognp.html');
  });

  it('refuses a program behind a trailing dot or an unseen character, and a name with nothing visible in it', async () => {
    // Act
    const dotted = await suite.api.call(routes.createBRecord, { body: { transferId, name: 'ok.exe.', size: 10 }, as: sender });
    const hidden = await suite.api.call(routes.createFiles, {
      body: { transferId, files: [{ name: 'ok.ex\u200be', size: 10 }] },
      as: sender,
    });
    const empty = await suite.api.call(routes.createBRecord, { body: { transferId, name: '\u202e. .', size: 10 }, as: sender });

    // Assess
    expectError(dotted, 400);
    expect(dotted.body.message).toContain('ok.exe: programs and installers cannot be sent');
    expectError(hidden, 400);
    expect(hidden.body.message).toContain('programs and installers');
    expectError(empty, 400);
    expect(empty.body.message).toContain('This file name has no visible characters left');
  });
});

describe('images by value', () => {
  let user: SignedInUser;
  // A 1x1 transparent PNG.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  /** The test's own image host, on 127.0.0.2: loopback, which the local runtime may fetch (FETCH_PRIVATE_ADDRESSES). */
  let images: Server;
  let imageHost: string;

  beforeAll(async () => {
    images = createServer((request, response) => {
      if (request.url === '/pics/avatar.png')
        response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png, 'base64'));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.2', resolve));
    imageHost = `http://127.0.0.2:${(images.address() as AddressInfo).port}`;
    user = await suite.api.signIn('imager');
  });

  afterAll(async () => {
    images?.closeAllConnections();
    await new Promise<void>((resolve) => images?.close(() => resolve()) ?? resolve());
  });

  it('stores a PNG sent as base64, recognised from its bytes', async () => {
    // Act
    const stored = await suite.api.call(routes.uploadImageByBase64, {
      body: { dataBase64: `data:image/jpeg;base64,${png}`, name: 'me.gif' },
      as: user,
    });

    // Assess
    expectOk(stored, 201);
    expect(stored.body.file).toMatchObject({ purpose: 'image', type: 'image/png', status: 'ready', name: 'me.png' });
    const image = await fetch(stored.body.url);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('fetches a PNG from its address and stores it under the name the address gives, ready to show', async () => {
    // Act
    const stored = await suite.api.call(routes.uploadImageByUrl, { body: { url: `${imageHost}/pics/avatar.png` }, as: user });

    // Assess
    expectOk(stored, 201);
    const bytes = Buffer.from(png, 'base64');
    expect(stored.body.file).toMatchObject({
      purpose: 'image',
      type: 'image/png',
      status: 'ready',
      uploadMethod: 'server',
      name: 'avatar.png',
      size: bytes.length,
    });
    const image = await fetch(stored.body.url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses text that is not base64, an SVG, and an address that is not http', async () => {
    // Act
    const notBase64 = await suite.api.call(routes.uploadImageByBase64, { body: { dataBase64: 'not base64!' }, as: user });
    const svg = await suite.api.call(routes.uploadImageByBase64, {
      body: {
        dataBase64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64'),
      },
      as: user,
    });
    const ftp = await suite.api.call(routes.uploadImageByUrl, { body: { url: 'ftp://example.com/a.png' }, as: user });
    const svgFile = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'a.svg', size: 10, type: 'image/svg+xml' },
      as: user,
    });

    // Assess
    expectError(notBase64, 400);
    expectError(svg, 400);
    expect(svg.body.message).toContain('SVG');
    expectError(ftp, 400);
    expectError(svgFile, 400);
  });

  it('checks an image uploaded by file from its bytes at finalize', async () => {
    // Prepare: declared a PNG, sent HTML of the same length.
    const fake = Buffer.from('<html><body>hi</body></html>');
    const record = await suite.api.call(routes.uploadImageByFile, {
      body: { name: 'a.png', size: fake.length, type: 'image/png' },
      as: user,
    });
    expectOk(record, 201);
    expect((await postUpload(record.body, fake, 'image/png')).status).toBe(204);

    // Act
    const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: record.body.file.id }, as: user });

    // Assess
    expectError(finalized, 400);
    expect(finalized.body.message).toContain('Only PNG, JPEG, GIF, WebP or AVIF');
  });
});

describe("the transfer app's screens", () => {
  it('shows the home to visitors with the free plan, and to a sender with their unfinished draft', async () => {
    // Prepare
    const sender = await suite.api.signIn('homebody');
    const created = await suite.api.call(routes.createTransfer, { body: { title: 'Unfinished' }, as: sender });
    expectOk(created, 201);
    expectOk(
      await suite.api.call(routes.createBRecord, { body: { transferId: created.body.id, name: 'a.txt', size: 3 }, as: sender }),
      201,
    );

    // Act
    const visitor = await suite.api.call(routes.showTransferHome);
    const own = await suite.api.call(routes.showTransferHome, { as: sender });

    // Assess
    expectOk(visitor);
    expect(visitor.body).toMatchObject({
      signedIn: false,
      sent: [],
      draft: null,
      limits: { planId: 'free', maxTransferBytes: 2e9 },
    });
    expect(visitor.body.seo.title).toContain('send large files');
    expectOk(own);
    expect(own.body.draft?.transfer.id).toBe(created.body.id);
    expect(own.body.draft?.files.map((file) => [file.name, file.status])).toEqual([['a.txt', 'pending']]);
  });

  it("shows a sender's public card without their address, and 404 for nobody", async () => {
    // Prepare
    const sender = await suite.api.signIn('carded');

    // Act
    const card = await suite.api.call(routes.showSenderProfile, { params: { userId: sender.userId } });
    const nobody = await suite.api.call(routes.showSenderProfile, { params: { userId: 'no-such-user' } });

    // Assess
    expectOk(card);
    expect(card.body.person.username).toBe(sender.username);
    expect(card.text).not.toContain(sender.email);
    expectError(nobody, 404);
  });

  it('serves the package screen only to whom the package is for', async () => {
    // Prepare
    const [sender, recipient, stranger] = await Promise.all(['s', 'r', 'x'].map((label) => suite.api.signIn(label)));
    const { transferId } = await sentTransfer(suite.api, sender as SignedInUser, {
      files: [{ name: 'c.txt', bytes: patternedBytes(10), type: 'text/plain' }],
      recipients: [(recipient as SignedInUser).email],
      title: 'Contract',
    });

    // Act
    const screen = await suite.api.call(routes.showPackageScreen, { params: { id: transferId }, as: recipient as SignedInUser });
    const strangers = await suite.api.call(routes.showPackageScreen, {
      params: { id: transferId },
      as: stranger as SignedInUser,
    });

    // Assess
    expectOk(screen);
    expect(screen.body.seo.title).toContain('Contract');
    expect(screen.body.package.files.map((file) => file.name)).toEqual(['c.txt']);
    expectError(strangers, 404);
  });

  it('lists the public transfer pages in its sitemap, and no package', async () => {
    // Act
    const sitemap = await suite.api.call(routes.transferSitemap);

    // Assess
    expectOk(sitemap);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(sitemap.text).toContain('<loc>');
    expect(sitemap.text).toContain('/transfer</loc>');
    expect(sitemap.text).not.toContain('/package');
  });
});

describe("a transfer's emailed link", () => {
  /** The cookies an answer set, as a browser would send them back. */
  const cookieHeader = (setCookies: readonly string[]) => setCookies.map((cookie) => cookie.split(';')[0]).join('; ');
  const linkTokenFor = async (email: string, transferId: string) => {
    const mails = await mailsTo(suite.runtime.mailDir, email);
    const pattern = new RegExp(`/transfer/${transferId}/package#invite=([A-Za-z0-9_-]+)`);
    return mails.map((mail) => pattern.exec(mail.text ?? '')?.[1]).find(Boolean) ?? '';
  };

  it('opens its package to a recipient who has an account, and never their account', async () => {
    // Prepare
    const [sender, holder] = (await Promise.all(['link-sender', 'link-holder'].map((label) => suite.api.signIn(label)))) as [
      SignedInUser,
      SignedInUser,
    ];
    const files = [{ name: 'plan.txt', bytes: patternedBytes(300), type: 'text/plain' }];
    const a = await sentTransfer(suite.api, sender, { files, recipients: [holder.email], title: 'Transfer A' });
    const b = await sentTransfer(suite.api, sender, { files, recipients: [holder.email], title: 'Transfer B' });
    const token = await linkTokenFor(holder.email, a.transferId);
    expect(token).not.toBe('');

    // Act
    const accepted = await suite.api.call(routes.acceptTransferInvite, { params: { id: a.transferId }, body: { token } });
    expectOk(accepted);
    const cookie = { cookie: cookieHeader(accepted.cookies) };
    const me = await suite.api.call(routes.getMe, { headers: cookie });
    const account = await suite.api.call(routes.getAccount, { headers: cookie });
    const sessions = await suite.api.call(routes.listSessions, { headers: cookie });
    const received = await suite.api.call(routes.listReceivedTransfers, { headers: cookie });
    const pkg = await suite.api.call(routes.getTransferPackage, { params: { id: a.transferId }, headers: cookie });
    const screen = await suite.api.call(routes.showPackageScreen, { params: { id: a.transferId }, headers: cookie });
    const fileId = a.fileIds[0] ?? '';
    const liked = await suite.api.call(routes.likeTransferFile, {
      params: { id: a.transferId, relationId: fileId, status: 'on' },
      headers: cookie,
    });
    const votes = await suite.api.call(routes.listMyVotes, { params: { id: a.transferId }, headers: cookie });
    const download = await suite.api.call(routes.downloadFile, { params: { id: fileId }, headers: cookie });
    const zip = await suite.api.call(routes.downloadAllFiles, { params: { id: a.transferId }, headers: cookie });
    const otherPackage = await suite.api.call(routes.getTransferPackage, { params: { id: b.transferId }, headers: cookie });
    const otherDownload = await suite.api.call(routes.downloadFile, { params: { id: b.fileIds[0] ?? '' }, headers: cookie });
    const otherVote = await suite.api.call(routes.likeTransferFile, {
      params: { id: b.transferId, relationId: b.fileIds[0] ?? '', status: 'on' },
      headers: cookie,
    });
    const ownVotes = await suite.api.call(routes.listMyVotes, { params: { id: a.transferId }, as: holder });

    // Assess
    expect(accepted.cookies.some((set) => set.startsWith('ssoat=') || set.startsWith('ssoh='))).toBe(false);
    expect(accepted.body.grant).toMatchObject({ email: holder.email, accountCreated: false });
    expectError(me, 401);
    expectError(account, 401);
    expectError(sessions, 401);
    expectError(received, 401);
    expectOk(pkg);
    expect(pkg.body.files.map((file) => file.name)).toEqual(['plan.txt']);
    expect(pkg.body.isOwner).toBe(false);
    expectOk(screen);
    expectOk(liked);
    expect(liked.body.file).toMatchObject({ likes: 1, myVote: 'like' });
    expectOk(votes);
    expect(votes.body.votes).toEqual({ [fileId]: 'like' });
    expectOk(download);
    expect((await fetch(download.body.url)).status).toBe(200);
    expectOk(zip);
    expectError(otherPackage, 401);
    expectError(otherDownload, 401);
    expectError(otherVote, 401);
    // The vote is the recipient's own: their account sees it once they log in.
    expectOk(ownVotes);
    expect(ownVotes.body.votes).toEqual({ [fileId]: 'like' });
  });
});
