import { describe, expect, it } from 'vitest';
import { MAX_FILES_PER_TRANSFER, PLAN_LIMITS } from '@shared/transfers/plans';
import { fakeFile, id, makeFile, makeTransfer } from '../test-utils/fixtures';
import { SendProgressStore } from './send-progress';
import { pickedKey } from './send-transfer';
import {
  acceptRecipients,
  addPickedFiles,
  draftTotals,
  emptyDraft,
  missingForSend,
  type ResumableDraft,
  type TransferDraft,
  type TransferDraftAction,
  transferDraftReducer,
} from './transfer-draft';

const GB = 1024 ** 3;
const free = PLAN_LIMITS.free;

const run = (actions: TransferDraftAction[], from: TransferDraft = emptyDraft(7)) => actions.reduce(transferDraftReducer, from);

const picked = (file: File) => ({ key: pickedKey(file), file });

/** A draft started earlier: a.bin uploaded, b.bin still pending. */
const resumable: ResumableDraft = {
  transfer: makeTransfer(id('t1'), { title: 'Earlier', message: 'As promised.' }),
  files: [
    makeFile('a', { name: 'a.bin', size: 1_000, status: 'ready' }),
    makeFile('b', { name: 'b.bin', size: 2_000, status: 'pending' }),
  ],
  recipients: ['bo@example.com'],
};

describe('addPickedFiles', () => {
  it('adds each file once, after those picked already', () => {
    // Prepare
    const a = fakeFile('a.txt', 10);
    const b = fakeFile('b.txt', 20);

    // Act
    const { files, refusals } = addPickedFiles([picked(a)], [b, a, b]);

    // Assess
    expect(files.map(({ file }) => file.name)).toEqual(['a.txt', 'b.txt']);
    expect(refusals).toEqual([]);
  });

  it('refuses programs and files past the most a transfer holds, saying why', () => {
    // Prepare
    const full = Array.from({ length: MAX_FILES_PER_TRANSFER }, (_, index) => picked(fakeFile(`${index}.txt`, 1)));

    // Act
    const { files, refusals } = addPickedFiles(full, [fakeFile('setup.exe', 5), fakeFile('one-more.txt', 5)]);

    // Assess
    expect(files).toHaveLength(MAX_FILES_PER_TRANSFER);
    expect(refusals).toEqual([
      'setup.exe: programs and installers cannot be sent.',
      `A transfer holds at most ${MAX_FILES_PER_TRANSFER} files: one-more.txt was not added.`,
    ]);
  });
});

describe('acceptRecipients', () => {
  it('adds new addresses once whatever their case, and leaves what is not an address in the box', () => {
    // Act
    const result = acceptRecipients(['ana@example.com'], ['ANA@example.com', 'bo@example.com', 'bo@EXAMPLE.com', 'nope'], 50);

    // Assess
    expect(result).toEqual({ accepted: ['bo@example.com'], input: 'nope', error: '“nope” is not an email address.' });
  });

  it("stops at the plan's recipients and says so", () => {
    // Act
    const result = acceptRecipients(['ana@example.com'], ['bo@example.com', 'cy@example.com'], 2);

    // Assess
    expect(result).toEqual({ accepted: ['bo@example.com'], input: '', error: 'Your plan sends to at most 2 recipients.' });
  });
});

describe('draftTotals', () => {
  it("adds up the picked files and caps the expiry at the plan's", () => {
    // Prepare
    const draft = run([
      { type: 'filesAdded', files: [fakeFile('a.txt', GB), fakeFile('b.txt', 2 * GB)] },
      { type: 'expiryChanged', days: 30 },
    ]);

    // Act
    const totals = draftTotals(draft, free);

    // Assess
    expect(totals).toMatchObject({ totalBytes: 3 * GB, overLimit: true, expiryDays: 7, keptBytes: 0, waitingFiles: [] });
    expect(draftTotals(draft, PLAN_LIMITS.pro)).toMatchObject({ overLimit: false, expiryDays: 30 });
  });

  it('counts the resumed draft’s uploaded files once, and lists the pending ones not picked again', () => {
    // Prepare
    const draft = run([
      { type: 'resumeStarted', draft: resumable },
      { type: 'filesAdded', files: [fakeFile('a.bin', 1_000), fakeFile('c.bin', 500)] },
    ]);

    // Act
    const totals = draftTotals(draft, free);

    // Assess
    expect(totals.keptBytes).toBe(1_000);
    expect(totals.totalBytes).toBe(1_500);
    expect(totals.keptReady.map((file) => file.name)).toEqual(['a.bin']);
    expect(totals.waitingFiles.map((file) => file.name)).toEqual(['b.bin']);
  });
});

describe('missingForSend', () => {
  it('asks for a file, then a recipient', () => {
    // Prepare
    const withFile = run([{ type: 'filesAdded', files: [fakeFile('a.txt', 10)] }]);

    // Assess
    expect(missingForSend(emptyDraft(7), ['ana@example.com'])).toBe('Add at least one file.');
    expect(missingForSend(withFile, [])).toBe('Add at least one recipient.');
    expect(missingForSend(withFile, ['ana@example.com'])).toBeNull();
  });

  it('takes the files a resumed draft already uploaded as files', () => {
    // Prepare
    const draft = run([{ type: 'resumeStarted', draft: resumable }]);

    // Assess
    expect(missingForSend(draft, draft.recipients)).toBeNull();
  });
});

describe('transferDraftReducer', () => {
  it('clears what Send found missing once files or recipients are added', () => {
    // Prepare
    const refused = run([{ type: 'sendRefused', problem: 'Add at least one file.' }]);

    // Act
    const withFile = transferDraftReducer(refused, { type: 'filesAdded', files: [fakeFile('a.txt', 10)] });
    const withRecipient = transferDraftReducer(refused, {
      type: 'recipientsAdded',
      emails: ['ana@example.com'],
      maxRecipients: 50,
    });

    // Assess
    expect(refused.formError).toBe('Add at least one file.');
    expect(withFile.formError).toBeNull();
    expect(withRecipient.formError).toBeNull();
    expect(withRecipient.recipients).toEqual(['ana@example.com']);
  });

  it('keeps a typed address that is wrong in the box with the error, until the sender types again', () => {
    // Act
    const wrong = run([{ type: 'recipientsAdded', emails: ['ana@example'], maxRecipients: 50 }]);
    const typing = transferDraftReducer(wrong, { type: 'recipientInputChanged', value: 'ana@example.' });

    // Assess
    expect(wrong).toMatchObject({
      recipients: [],
      recipientInput: 'ana@example',
      recipientError: '“ana@example” is not an email address.',
    });
    expect(typing).toMatchObject({ recipientInput: 'ana@example.', recipientError: null });
  });

  it('removes a file and a recipient', () => {
    // Prepare
    const a = fakeFile('a.txt', 10);
    const draft = run([
      { type: 'filesAdded', files: [a, fakeFile('b.txt', 20)] },
      { type: 'recipientsAdded', emails: ['ana@example.com', 'bo@example.com'], maxRecipients: 50 },
    ]);

    // Act
    const after = run(
      [
        { type: 'fileRemoved', key: pickedKey(a) },
        { type: 'recipientRemoved', email: 'ana@example.com' },
      ],
      draft,
    );

    // Assess
    expect(after.files.map(({ file }) => file.name)).toEqual(['b.txt']);
    expect(after.recipients).toEqual(['bo@example.com']);
  });

  it('resumes a draft with its title, message and recipients', () => {
    // Act
    const draft = run([{ type: 'resumeStarted', draft: resumable }]);

    // Assess
    expect(draft).toMatchObject({
      resuming: resumable,
      title: 'Earlier',
      message: 'As promised.',
      recipients: ['bo@example.com'],
    });
  });

  it('holds the send under way, then the transfer sent or why it failed, with the earlier errors cleared', () => {
    // Prepare
    const sending = { store: new SendProgressStore([]), controller: new AbortController(), files: [] };
    const failed = run([
      { type: 'sendRefused', problem: 'Add at least one recipient.' },
      { type: 'sendStarted', sending },
      { type: 'sendFailed', error: new Error('Network down') },
    ]);
    const transfer = { ...makeTransfer(id('t2'), { status: 'sent' }), link: null };

    // Act
    const started = transferDraftReducer(failed, { type: 'sendStarted', sending });
    const sent = transferDraftReducer(started, { type: 'sendSucceeded', transfer });

    // Assess
    expect(failed).toMatchObject({ formError: null, sending: null, sendError: new Error('Network down') });
    expect(started).toMatchObject({ sendError: null, sending });
    expect(sent).toMatchObject({ sent: transfer, sending: null });
    sending.store.dispose();
  });

  it('starts anew after a send, at the plan’s default expiry and without offering the unfinished draft again', () => {
    // Prepare
    const used = run([
      { type: 'resumeStarted', draft: resumable },
      { type: 'filesAdded', files: [fakeFile('b.bin', 2_000)] },
      { type: 'expiryChanged', days: 3 },
      { type: 'sendSucceeded', transfer: { ...makeTransfer(id('t1'), { status: 'sent' }), link: null } },
    ]);

    // Act
    const fresh = transferDraftReducer(used, { type: 'reset', expiry: 30 });

    // Assess
    expect(fresh).toEqual({ ...emptyDraft(30), offerDismissed: true });
  });
});
