import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { type BodyOf, routes } from '../../shared/routes';
import type { RequestUploadView } from '../../shared/schemas/file-requests';
import { MIB, partRange } from '../../shared/transfers/upload-sizing';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { mailsTo } from '../support/mail';
import { patternedBytes, postUpload, sentTransfer } from '../support/transfers';

const suite = apiSuite();

interface Started {
  status: number;
  body: RequestUploadView & { message?: string; code?: string };
  setCookies: string[];
  /** The grant as a Cookie header value. */
  cookie: string;
}

/**
 * Starts an upload from a chosen loopback address (all of 127.0.0.0/8 is this machine), so each
 * test is its own client for the per-network limit, and the visitor sends no session.
 */
function startFrom(sourceIp: string, requestId: string, body: unknown): Promise<Started> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: suite.runtime.port,
        localAddress: sourceIp,
        path: `/api/i/transfer/request/${encodeURIComponent(requestId)}/uploads`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-application-id': WEB_APPLICATION_ID,
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          const setCookies = incoming.headers['set-cookie'] ?? [];
          resolve({
            status: incoming.statusCode ?? 0,
            body: text ? (JSON.parse(text) as Started['body']) : ({} as Started['body']),
            setCookies,
            cookie: setCookies.map((cookie) => cookie.split(';')[0]).join('; '),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

let nextClient = 10;
/** A loopback address no other test has used. */
const newClient = () => `127.0.0.${(nextClient += 1)}`;

async function createRequest(owner: SignedInUser, body: BodyOf<typeof routes.createFileRequest>) {
  const created = await suite.api.call(routes.createFileRequest, { body, as: owner });
  expectOk(created, 201);
  return created.body;
}

async function startUpload(requestId: string, name = 'Ana Lima', note = ''): Promise<Started> {
  const started = await startFrom(newClient(), requestId, { name, note });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started;
}

/** Adds one small file to an upload, sends its bytes to storage and finalizes it: its id. */
async function uploadFile(started: Started, name: string, bytes: Buffer, type = 'text/plain'): Promise<string> {
  const headers = { cookie: started.cookie };
  const created = await suite.api.call(routes.createRequestUploadFiles, {
    params: { id: started.body.id },
    body: { files: [{ name, size: bytes.length, type }] },
    headers,
  });
  expectOk(created, 201);
  const uploading = created.body.files[0];
  if (!uploading) throw new Error('no file answered');
  expect((await postUpload(uploading, bytes, type)).status).toBe(204);
  const finalized = await suite.api.call(routes.finalizeRequestUploadFile, {
    params: { id: started.body.id, fileId: uploading.file.id },
    headers,
  });
  expectOk(finalized);
  return uploading.file.id;
}

describe('an upload through a file request', () => {
  let requester: SignedInUser;

  beforeAll(async () => {
    requester = await suite.api.signIn('requester');
  });

  it("lands in a transfer the requester owns, marked with the uploader's name and note, and tells the requester", async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Wedding photos', message: 'Send me yours!' });
    const shown = await suite.api.call(routes.showFileRequest, { params: { id: request.id } });
    expectOk(shown);
    expect(shown.body).toMatchObject({
      title: 'Wedding photos',
      message: 'Send me yours!',
      requester: { userId: requester.userId },
    });

    // Act
    const started = await startUpload(request.id, 'Ana Lima', 'From the ceremony');
    await uploadFile(started, 'vows.txt', patternedBytes(1_200));
    await uploadFile(started, 'toast.txt', patternedBytes(800, 3));
    const finished = await suite.api.call(routes.finishRequestUpload, {
      params: { id: started.body.id },
      headers: { cookie: started.cookie },
    });

    // Assess: the grant is an HttpOnly cookie for this upload's paths only.
    expect(started.setCookies).toEqual([
      expect.stringMatching(
        new RegExp(
          `^rug_${started.body.id}=[^;]+; Path=/api/i/transfer/request-upload/${started.body.id}/; HttpOnly; Secure; SameSite=Lax`,
        ),
      ),
    ]);
    expectOk(finished);
    expect(finished.body).toMatchObject({ status: 'finished', uploaderName: 'Ana Lima', note: 'From the ceremony' });
    expect(finished.body.files.map((file) => file.name)).toEqual(['vows.txt', 'toast.txt']);

    const own = await suite.api.call(routes.listOwnTransfers, { as: requester });
    expectOk(own);
    const received = own.body.transfers.find((transfer) => transfer.id === started.body.id);
    expect(received).toMatchObject({
      status: 'sent',
      fileCount: 2,
      title: 'Wedding photos',
      owner: { userId: requester.userId },
      receivedThrough: { requestId: request.id, uploaderName: 'Ana Lima', uploaderNote: 'From the ceremony' },
    });
    const view = await suite.api.call(routes.getTransfer, { params: { id: started.body.id }, as: requester });
    expectOk(view);
    const vows = view.body.files.find((file) => file.name === 'vows.txt');
    const link = await suite.api.call(routes.downloadFile, { params: { id: vows?.id ?? '' }, as: requester });
    expectOk(link);
    expect(Buffer.from(await (await fetch(link.body.url)).arrayBuffer())).toEqual(patternedBytes(1_200));

    const notifications = await suite.api.call(routes.listUnseenNotifications, { as: requester });
    expectOk(notifications);
    expect(notifications.body.items.filter((item) => item.kind === 'transfer-request-upload')).toEqual([
      expect.objectContaining({
        app: 'transfer',
        object: expect.objectContaining({
          type: 'transfer',
          id: started.body.id,
          title: 'Wedding photos',
          detail: 'Ana Lima sent 2 files, noting “From the ceremony”',
        }),
      }),
    ]);
    const mails = (await mailsTo(suite.runtime.mailDir, requester.email)).filter((mail) =>
      (mail.headers.subject ?? '').includes('through “Wedding photos”'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.headers.subject).toBe('Ana Lima sent 2 files through “Wedding photos”');
    expect(mails[0]?.text).toContain('From the ceremony');

    const listed = await suite.api.call(routes.listFileRequests, { as: requester });
    expectOk(listed);
    expect(listed.body.requests.find((item) => item.id === request.id)).toMatchObject({
      status: 'open',
      uploadCount: 1,
      finishedCount: 1,
      totalBytes: 2_000,
    });
  });

  it('answers a second finish with the same upload and tells the requester once', async () => {
    // Prepare: a requester of its own, as mails of a kind to one address are a second apart at
    // the least (the earlier tests' uploads mailed this suite's requester moments ago)
    const owner = await suite.api.signIn('twice-requester');
    const request = await createRequest(owner, { title: 'Twice' });
    const started = await startUpload(request.id, 'Bo');
    await uploadFile(started, 'one.txt', patternedBytes(100));
    const headers = { cookie: started.cookie };
    expectOk(await suite.api.call(routes.finishRequestUpload, { params: { id: started.body.id }, headers }));

    // Act
    const again = await suite.api.call(routes.finishRequestUpload, { params: { id: started.body.id }, headers });
    const more = await suite.api.call(routes.createRequestUploadFiles, {
      params: { id: started.body.id },
      body: { files: [{ name: 'late.txt', size: 10, type: 'text/plain' }] },
      headers,
    });

    // Assess
    expectOk(again);
    expect(again.body.status).toBe('finished');
    expectError(more, 409);
    const mails = (await mailsTo(suite.runtime.mailDir, owner.email)).filter((mail) =>
      (mail.headers.subject ?? '').includes('through “Twice”'),
    );
    expect(mails).toHaveLength(1);
  });

  it('refuses to finish an upload without files, or with a file still uploading', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Pending' });
    const started = await startUpload(request.id);
    const headers = { cookie: started.cookie };
    const empty = await suite.api.call(routes.finishRequestUpload, { params: { id: started.body.id }, headers });
    expectOk(
      await suite.api.call(routes.createRequestUploadFiles, {
        params: { id: started.body.id },
        body: { files: [{ name: 'never.txt', size: 10, type: 'text/plain' }] },
        headers,
      }),
      201,
    );

    // Act
    const pending = await suite.api.call(routes.finishRequestUpload, { params: { id: started.body.id }, headers });

    // Assess
    expectError(empty, 400);
    expect(empty.body.message).toContain('at least one file');
    expectError(pending, 409);
    expect(pending.body.message).toContain('never.txt');
  });

  it('resumes an interrupted upload: a new form for a small file, and the parts storage already holds of a large one', async () => {
    // Prepare: the visitor added two files, then their page was reloaded before any bytes were sent.
    const request = await createRequest(requester, { title: 'Raw footage' });
    const started = await startUpload(request.id, 'Cam');
    const headers = { cookie: started.cookie };
    const shotList = patternedBytes(700);
    const footage = patternedBytes(17 * MIB, 5);
    const created = await suite.api.call(routes.createRequestUploadFiles, {
      params: { id: started.body.id },
      body: {
        files: [
          { name: 'shot-list.txt', size: shotList.length, type: 'text/plain' },
          { name: 'take-1.mp4', size: footage.length, type: 'video/mp4' },
        ],
      },
      headers,
    });
    expectOk(created, 201);
    const [small, large] = created.body.files;
    if (!small || large?.upload.method !== 'multipart') throw new Error('expected a single upload and a multipart one');
    const { partSize } = large.upload;
    const of = (fileId: string) => ({ id: started.body.id, fileId });

    // Act: a new form for the small file; the large one's parts signed, one sent, then "a reload" asks what arrived.
    const form = await suite.api.call(routes.signRequestUploadForm, { params: of(small.file.id), headers });
    expectOk(form);
    const posted = await postUpload(form.body, shotList, 'text/plain');
    const signed = await suite.api.call(routes.signRequestUploadParts, {
      params: of(large.file.id),
      body: { partNumbers: [1, 2, 3] },
      headers,
    });
    expectOk(signed);
    const putPart = (partNumber: number) => {
      const { start, end } = partRange(footage.length, partSize, partNumber);
      const url = signed.body.parts.find((part) => part.partNumber === partNumber)?.url ?? '';
      return fetch(url, { method: 'PUT', body: new Uint8Array(footage.subarray(start, end)) });
    };
    const sent = await putPart(1);
    const held = await suite.api.call(routes.listRequestUploadParts, { params: of(large.file.id), headers });

    // Assess
    expect(form.body.file).toMatchObject({ id: small.file.id, name: 'shot-list.txt', status: 'pending' });
    expect(posted.status).toBe(204);
    expect(signed.body.parts.map((part) => part.partNumber)).toEqual([1, 2, 3]);
    expect(sent.status).toBe(200);
    expectOk(held);
    expect(held.body.parts).toEqual([{ partNumber: 1, size: partSize, etag: sent.headers.get('etag') }]);
    // Sending only what was missing completes both files.
    for (const partNumber of [2, 3]) expect((await putPart(partNumber)).status).toBe(200);
    const finalized = await Promise.all(
      [small, large].map(({ file }) => suite.api.call(routes.finalizeRequestUploadFile, { params: of(file.id), headers })),
    );
    expect(finalized.map((answer) => [answer.status, answer.body])).toEqual([
      [200, { file: expect.objectContaining({ name: 'shot-list.txt', status: 'ready', size: shotList.length }) }],
      [200, { file: expect.objectContaining({ name: 'take-1.mp4', status: 'ready', size: footage.length }) }],
    ]);
  });

  it('refuses a start without a name, and a request longer than the plan allows', async () => {
    // Act
    const request = await createRequest(requester, { title: 'Names' });
    const nameless = await startFrom(newClient(), request.id, { name: '   ', note: 'hi' });
    const twoLines = await startFrom(newClient(), request.id, { name: 'Ana\nBcc: everyone@example.com' });
    const tooLong = await suite.api.call(routes.createFileRequest, { body: { title: 'Long', expiresInDays: 30 }, as: requester });
    const anonymous = await suite.api.call(routes.createFileRequest, { body: { title: 'Nobody' } });

    // Assess
    expect(nameless.status).toBe(400);
    expect(JSON.stringify(nameless.body)).toContain('Enter your name');
    expect(twoLines.status).toBe(400);
    expect(JSON.stringify(twoLines.body)).toContain('Write your name on one line');
    expectError(tooLong, 400);
    expect(tooLong.body.message).toContain('at most 7 days');
    expectError(anonymous, 401);
  });
});

describe('what an uploader can reach', () => {
  let requester: SignedInUser;
  let stranger: SignedInUser;
  let requestId: string;
  let first: Started;
  let second: Started;
  let firstFile: string;
  let secondFile: string;
  let requesterFile: string;

  beforeAll(async () => {
    [requester, stranger] = (await Promise.all(
      ['reach-requester', 'reach-stranger'].map((label) => suite.api.signIn(label)),
    )) as [SignedInUser, SignedInUser];
    const own = await sentTransfer(suite.api, requester, {
      files: [{ name: 'private.txt', bytes: patternedBytes(300), type: 'text/plain' }],
      recipients: ['someone@example.com'],
    });
    requesterFile = own.fileIds[0] ?? '';
    requestId = (await createRequest(requester, { title: 'Reach' })).id;
    first = await startUpload(requestId, 'First');
    second = await startUpload(requestId, 'Second');
    firstFile = await uploadFile(first, 'first.txt', patternedBytes(200));
    secondFile = await uploadFile(second, 'second.txt', patternedBytes(200, 5));
  });

  it("sees only their own files, and another uploader's or the requester's files answer 404 as unknown ones do", async () => {
    // Act
    const mine = await suite.api.call(routes.getRequestUpload, {
      params: { id: first.body.id },
      headers: { cookie: first.cookie },
    });
    const finalizeOf = (fileId: string) =>
      suite.api.call(routes.finalizeRequestUploadFile, {
        params: { id: first.body.id, fileId },
        headers: { cookie: first.cookie },
      });
    const [others, requesters, unknown] = await Promise.all([
      finalizeOf(secondFile),
      finalizeOf(requesterFile),
      finalizeOf('unknownfile0123456789'),
    ]);
    const abortOthers = await suite.api.call(routes.abortRequestUploadFile, {
      params: { id: first.body.id, fileId: secondFile },
      headers: { cookie: first.cookie },
    });
    const partsOfRequesters = await suite.api.call(routes.listRequestUploadParts, {
      params: { id: first.body.id, fileId: requesterFile },
      headers: { cookie: first.cookie },
    });

    // Assess
    expectOk(mine);
    expect(mine.body.files.map((file) => file.id)).toEqual([firstFile]);
    expectError(unknown, 404);
    for (const answer of [others, requesters, abortOthers, partsOfRequesters]) {
      expectError(answer, 404);
      expect(answer.body.message).toBe(unknown.body.message);
    }
  });

  it("cannot open another upload, or the requester's files through the file routes, with their grant", async () => {
    // Act: a browser would not even send the grant there; a script can.
    const otherUpload = await suite.api.call(routes.getRequestUpload, {
      params: { id: second.body.id },
      headers: { cookie: first.cookie },
    });
    const renamedGrant = await suite.api.call(routes.getRequestUpload, {
      params: { id: second.body.id },
      headers: { cookie: first.cookie.replace(`rug_${first.body.id}`, `rug_${second.body.id}`) },
    });
    const fileRecord = await suite.api.call(routes.getFile, { params: { id: firstFile }, headers: { cookie: first.cookie } });
    const requesterDownload = await suite.api.call(routes.downloadFile, {
      params: { id: requesterFile },
      headers: { cookie: first.cookie },
    });
    const signedInStranger = await suite.api.call(routes.getRequestUpload, { params: { id: first.body.id }, as: stranger });

    // Assess
    expectError(otherUpload, 401);
    expectError(renamedGrant, 401);
    expectError(fileRecord, 404);
    expectError(requesterDownload, 401);
    expectError(signedInStranger, 401);
  });
});

describe('closed, expired and deleted requests', () => {
  let requester: SignedInUser;

  beforeAll(async () => {
    requester = await suite.api.signIn('closing-requester');
  });

  it('answers 410 once closed, to the link, to new uploads and to uploads under way', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Closing' });
    const underWay = await startUpload(request.id);
    await uploadFile(underWay, 'early.txt', patternedBytes(50));

    // Act
    const closed = await suite.api.call(routes.closeFileRequest, { params: { id: request.id }, as: requester });
    const shown = await suite.api.call(routes.showFileRequest, { params: { id: request.id } });
    const started = await startFrom(newClient(), request.id, { name: 'Late' });
    const added = await suite.api.call(routes.createRequestUploadFiles, {
      params: { id: underWay.body.id },
      body: { files: [{ name: 'late.txt', size: 10, type: 'text/plain' }] },
      headers: { cookie: underWay.cookie },
    });
    const finished = await suite.api.call(routes.finishRequestUpload, {
      params: { id: underWay.body.id },
      headers: { cookie: underWay.cookie },
    });
    const ownView = await suite.api.call(routes.getRequestUpload, {
      params: { id: underWay.body.id },
      headers: { cookie: underWay.cookie },
    });

    // Assess
    expectOk(closed);
    expect(closed.body.status).toBe('closed');
    expectError(shown, 410);
    expect(shown.body.message).toBe('This file request was closed by the person who made it: it takes no more files.');
    expect(started.status).toBe(410);
    expect(started.body.message).toContain('closed');
    expectError(added, 410);
    expectError(finished, 410);
    expectOk(ownView);
    expect(ownView.body.files.map((file) => file.name)).toEqual(['early.txt']);
  });

  it('answers 410 with the date once expired', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Expiring', expiresInDays: 1 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await getDb().entities.fileRequest.patch({ requestId: request.id }).set({ availableUntil: yesterday }).go();

    // Act
    const shown = await suite.api.call(routes.showFileRequest, { params: { id: request.id } });
    const started = await startFrom(newClient(), request.id, { name: 'Late' });

    // Assess
    expectError(shown, 410);
    expect(shown.body.message).toBe(`This file request expired on ${yesterday.slice(0, 10)}: it takes no more files.`);
    expect(started.status).toBe(410);
  });

  it('answers 404 once deleted, as for a request that never existed, and keeps what was uploaded', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Deleting' });
    const upload = await startUpload(request.id);
    await uploadFile(upload, 'kept.txt', patternedBytes(20));
    expectOk(
      await suite.api.call(routes.finishRequestUpload, { params: { id: upload.body.id }, headers: { cookie: upload.cookie } }),
    );

    // Act
    const deleted = await suite.api.call(routes.deleteFileRequest, { params: { id: request.id }, as: requester });
    const shown = await suite.api.call(routes.showFileRequest, { params: { id: request.id } });
    const unknown = await suite.api.call(routes.showFileRequest, { params: { id: 'neverexisted012345678' } });
    const transfer = await suite.api.call(routes.getTransfer, { params: { id: upload.body.id }, as: requester });

    // Assess
    expectOk(deleted);
    expectError(shown, 404);
    expectError(unknown, 404);
    expect(shown.body.message).toBe(unknown.body.message);
    expectOk(transfer);
    expect(transfer.body.files.map((file) => file.name)).toEqual(['kept.txt']);
  });
});

describe('limits', () => {
  let requester: SignedInUser;

  beforeAll(async () => {
    requester = await suite.api.signIn('limits-requester');
  });

  it('takes no more uploads than the request allows', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Two only', maxUploads: 2 });
    await startUpload(request.id, 'One');
    await startUpload(request.id, 'Two');

    // Act
    const third = await startFrom(newClient(), request.id, { name: 'Three' });
    const shown = await suite.api.call(routes.showFileRequest, { params: { id: request.id } });

    // Assess
    expect(third.status).toBe(410);
    expect(third.body.message).toBe('This file request has received all the uploads it takes.');
    expectError(shown, 410);
  });

  it('takes no more bytes across its uploads than the request allows, and gives back what is removed', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Small', maxBytes: 2_000 });
    const first = await startUpload(request.id, 'One');
    const second = await startUpload(request.id, 'Two');
    const firstFile = await uploadFile(first, 'big.txt', patternedBytes(1_500));
    const addToSecond = () =>
      suite.api.call(routes.createRequestUploadFiles, {
        params: { id: second.body.id },
        body: { files: [{ name: 'more.txt', size: 600, type: 'text/plain' }] },
        headers: { cookie: second.cookie },
      });

    // Act
    const over = await addToSecond();
    const removed = await suite.api.call(routes.abortRequestUploadFile, {
      params: { id: first.body.id, fileId: firstFile },
      headers: { cookie: first.cookie },
    });
    const fits = await addToSecond();

    // Assess
    expectError(over, 400);
    expect(over.body.code).toBe('REQUEST_TOO_LARGE');
    expect(over.body.message).toContain('500 bytes left');
    expectOk(removed);
    expectOk(fits, 201);
  });

  it('refuses a request over the plan, and a refused file type as for a sender', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Types' });
    const upload = await startUpload(request.id);

    // Act
    const tooMany = await suite.api.call(routes.createFileRequest, { body: { title: 'Many', maxUploads: 51 }, as: requester });
    const script = await suite.api.call(routes.createRequestUploadFiles, {
      params: { id: upload.body.id },
      body: { files: [{ name: 'run.exe', size: 10, type: 'application/x-msdownload' }] },
      headers: { cookie: upload.cookie },
    });

    // Assess
    expectError(tooMany, 400);
    expect(tooMany.body.message).toContain('at most 50 uploads');
    expectError(script, 400);
  });

  it('lets one network start 10 uploads an hour, whatever the request, and others still start theirs', async () => {
    // Prepare
    const request = await createRequest(requester, { title: 'Busy' });
    const network = newClient();
    const allowed = [];
    for (let index = 0; index < 10; index += 1) allowed.push(await startFrom(network, request.id, { name: `Visitor ${index}` }));

    // Act
    const refused = await startFrom(network, request.id, { name: 'One more' });
    const elsewhere = await startFrom(newClient(), request.id, { name: 'Neighbour' });

    // Assess
    expect(allowed.map((started) => started.status)).toEqual(Array(10).fill(201));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain('Too many uploads were started from your network');
    expect(elsewhere.status).toBe(201);
  });
});

describe("someone else's request", () => {
  it('cannot be listed, closed or deleted by another user (404)', async () => {
    // Prepare
    const [owner, other] = (await Promise.all(['own-requester', 'other-user'].map((label) => suite.api.signIn(label)))) as [
      SignedInUser,
      SignedInUser,
    ];
    const request = await createRequest(owner, { title: 'Mine' });

    // Act
    const listed = await suite.api.call(routes.listFileRequests, { as: other });
    const closed = await suite.api.call(routes.closeFileRequest, { params: { id: request.id }, as: other });
    const deleted = await suite.api.call(routes.deleteFileRequest, { params: { id: request.id }, as: other });
    const unknown = await suite.api.call(routes.closeFileRequest, { params: { id: 'neverexisted012345678' }, as: other });

    // Assess
    expectOk(listed);
    expect(listed.body.requests).toEqual([]);
    expectError(closed, 404);
    expectError(deleted, 404);
    expect(closed.body.message).toBe(unknown.body.message);
    const ownList = await suite.api.call(routes.listFileRequests, { as: owner });
    expectOk(ownList);
    expect(ownList.body.requests).toEqual([expect.objectContaining({ id: request.id, status: 'open' })]);
  });
});

describe("the requester's own routes on an upload under way", () => {
  const UNDER_WAY = 'This transfer is being uploaded through your file request: wait for the uploader to finish.';

  it('refuse to change it (409) while the uploader fills it, and the uploader still finishes', async () => {
    // Prepare
    const requester = await suite.api.signIn('busy-requester');
    const request = await createRequest(requester, { title: 'Scans' });
    const started = await startUpload(request.id, 'Ana Lima');
    const id = started.body.id;
    const fileId = await uploadFile(started, 'scan.txt', patternedBytes(900));

    // Act
    const refusals = await Promise.all([
      suite.api.call(routes.addRecipient, { params: { id }, body: { email: 'someone@example.com' }, as: requester }),
      suite.api.call(routes.finalizeTransfer, { params: { id }, as: requester }),
      suite.api.call(routes.setTransferPassword, { params: { id }, body: { password: null }, as: requester }),
      suite.api.call(routes.setTransferDelivery, {
        params: { id },
        body: { delivery: 'link', downloadLimit: 2 },
        as: requester,
      }),
      suite.api.call(routes.createFiles, {
        body: { transferId: id, files: [{ name: 'extra.txt', size: 10, type: 'text/plain' }] },
        as: requester,
      }),
      suite.api.call(routes.deleteFile, { params: { id: fileId }, as: requester }),
    ]);
    const members = await suite.api.call(routes.listTransferMembers, { params: { id }, as: requester });
    const finished = await suite.api.call(routes.finishRequestUpload, { params: { id }, headers: { cookie: started.cookie } });
    const sendAfter = await suite.api.call(routes.finalizeTransfer, { params: { id }, as: requester });

    // Assess
    for (const refused of refusals) {
      expectError(refused, 409);
      expect(refused.body.message).toBe(UNDER_WAY);
    }
    expectOk(members);
    expect(members.body.members).toEqual([]);
    expectOk(finished);
    expect(finished.body.files.map((file) => file.name)).toEqual(['scan.txt']);
    // Finished, it is a sent transfer like any other: sending it again is the usual 409.
    expectError(sendAfter, 409);
    expect(sendAfter.body.message).toBe('This transfer was already sent: it cannot change any more.');
  });
});

describe('the list of requests', () => {
  it('comes 50 a page, newest first, with a cursor to the next page that only its owner can follow', async () => {
    // Prepare
    const [owner, other] = (await Promise.all(['many-requester', 'cursor-thief'].map((label) => suite.api.signIn(label)))) as [
      SignedInUser,
      SignedInUser,
    ];
    const titles = Array.from({ length: 52 }, (_, index) => `Request ${index + 1}`);
    for (const title of titles) await createRequest(owner, { title });

    // Act
    const first = await suite.api.call(routes.listFileRequests, { as: owner });
    expectOk(first);
    const cursor = first.body.cursor ?? '';
    const second = await suite.api.call(routes.listFileRequests, { query: { cursor }, as: owner });
    const stolen = await suite.api.call(routes.listFileRequests, { query: { cursor }, as: other });
    const forged = await suite.api.call(routes.listFileRequests, { query: { cursor: 'bm90LWEtY3Vyc29y' }, as: owner });

    // Assess
    expect(first.body.requests).toHaveLength(50);
    expect(cursor).not.toBe('');
    expectOk(second);
    expect(second.body.cursor).toBeNull();
    // Two requests made in the same millisecond may come in either order: the pages hold each once.
    expect(second.body.requests.map((request) => request.title).sort()).toEqual(['Request 1', 'Request 2']);
    const listed = [...first.body.requests, ...second.body.requests].map((request) => request.title);
    expect(new Set(listed).size).toBe(52);
    expect(listed.slice(0, 2).sort()).toEqual(['Request 51', 'Request 52']);
    expectError(stolen, 400);
    expect(stolen.body.message).toBe('That page link is not valid. Start again from the first page.');
    expectError(forged, 400);
  });
});
