import { describe, expect, it } from 'vitest';
import { createBRecordBodySchema } from '../../shared/schemas/transfers';
import { cleanFileName, MAX_FILE_NAME_LENGTH, refusedTransferFile, UNUSABLE_FILE_NAME } from '../../shared/transfers/file-rules';
import * as z from '../../shared/zod';

describe('cleanFileName', () => {
  it('drops format, control and separator characters that make a name read otherwise', () => {
    // Prepare: a right-to-left override (shows as "photolmth.png"), a zero-width space, a byte
    // order mark, NEL (U+0085), the line and paragraph separators, a C0 control, DEL.
    const names = ['photo\u202egnp.html', 'in\u200bvoice.pdf', '\ufeffnotes.txt', 'a\u0085b.txt', 'a\u2028b\u2029c.txt', 'a\u0007\u007fb.txt'];

    // Act
    const cleaned = names.map(cleanFileName);

    // Assess
    expect(cleaned).toEqual(['photognp.html', 'invoice.pdf', 'notes.txt', 'ab.txt', 'abc.txt', 'ab.txt']);
  });

  it('trims trailing dots and spaces, which Windows drops when it saves the file', () => {
    // Act
    const cleaned = ['ok.exe.', 'ok.exe . .', 'ok.exe\u202e.', ' report.pdf '].map(cleanFileName);

    // Assess
    expect(cleaned).toEqual(['ok.exe', 'ok.exe', 'ok.exe', 'report.pdf']);
  });

  it('keeps letters of every script, and the name without its folders', () => {
    // Act
    const cleaned = ['Überweisung März.pdf', 'تقرير.docx', 'C:\\Users\\me\\写真.jpg', '../etc/passwd', '.bashrc'].map(cleanFileName);

    // Assess
    expect(cleaned).toEqual(['Überweisung März.pdf', 'تقرير.docx', '写真.jpg', 'passwd', '.bashrc']);
  });

  it('leaves nothing of a name that is only dots, spaces and unseen characters', () => {
    // Act
    const cleaned = ['', '.', '..', ' . . ', '\u202e\u200b', 'folder/', '\u2028.'].map(cleanFileName);

    // Assess
    expect(cleaned).toEqual([null, null, null, null, null, null, null]);
  });

  it('shortens a long name to 255 characters, keeping its extension and no half character', () => {
    // Prepare
    const long = `${'a'.repeat(300)}.pdf`;
    const emoji = '😀'.repeat(200);

    // Act
    const shortened = cleanFileName(long);
    const cut = cleanFileName(emoji) ?? '';

    // Assess
    expect(shortened).toBe(`${'a'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`);
    expect(cut.length).toBeLessThanOrEqual(MAX_FILE_NAME_LENGTH);
    expect(cut).toBe('😀'.repeat(127));
  });
});

describe('refusedTransferFile', () => {
  it('reads the type from the cleaned name, so a trailing dot or an unseen character hides no program', () => {
    // Act
    const refusals = ['ok.exe.', 'ok.exe ', 'ok.ex\u200be', 'setup.msi\u202e'].map((name) => refusedTransferFile({ name, type: '' }));

    // Assess
    for (const refusal of refusals) expect(refusal).toContain('programs and installers cannot be sent');
    expect(refusedTransferFile({ name: 'photo\u202egnp.html', type: 'text/html' })).toBeNull();
  });
});

describe('the file name in a request', () => {
  it('refuses a name of which nothing is left once cleaned, and says why', () => {
    // Prepare
    const body = (name: string) => ({ transferId: 'transfer_0123456789', name, size: 1 });

    // Act
    const empty = z.safeParse(createBRecordBodySchema, body('\u202e. .'));
    const fine = z.safeParse(createBRecordBodySchema, body('photo\u202egnp.html.'));

    // Assess
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((issue) => issue.message)).toEqual([UNUSABLE_FILE_NAME]);
    expect(fine.success).toBe(true);
  });
});
