import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../shared/capabilities';
import { loadConfig, senderAt } from '../../functions/lib/config';
import type { Db } from '../../functions/lib/db/service';
import { runAsFunction } from '../../functions/lib/function-environment';
import { createMailer, sendMail } from '../../functions/lib/mailer';
import {
  INVITE_LISTED_FILES,
  type InviteMailData,
  transferInviteEmail,
} from '../../functions/transfers/lib/transfer-mail';
import { createTestTable } from '../support/dynamo';

const LOGIN_FROM = 'TopPubs <login@toppubs.example>';
const ses = mockClient(SESClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => ses.restore());
let db: Db;

beforeAll(async () => {
  ({ db } = await createTestTable());
});

afterEach(() => {
  ses.reset();
});

const DATA: InviteMailData = {
  sender: { name: 'Ana Lima', username: 'ana' },
  title: 'Q3 designs',
  message: 'Hi! <script>alert("x")</script> & see the cover',
  files: [
    { name: 'cover.png', size: 2_400_000 },
    { name: 'notes <b>.txt', size: 840 },
  ],
  availableUntil: '2026-03-31T10:00:00.000Z',
  url: 'https://app.example.com/transfer/t1/package#invite=tok',
};

/** A function's scope with the email capability, as the local runtime gives it. */
const emailScope = (env: Record<string, string> = {}) => ({
  name: 'transfer-mail-test',
  capabilities: capabilitiesOf({ email: true }, { table: 'read-write' }),
  env: { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com', MAIL_FROM: LOGIN_FROM, ...env },
});

describe('the transfer invitation email', () => {
  it('names the sender by display name and username, and lists the files with sizes, the message and the expiry', () => {
    // Act
    const mail = transferInviteEmail.template(DATA);

    // Assess
    expect(mail.subject).toBe('Ana Lima (@ana) sent you “Q3 designs”');
    expect(mail.text).toContain('Ana Lima (@ana) sent you “Q3 designs” with TopPubs.');
    expect(mail.text).toContain('Hi! <script>alert("x")</script> & see the cover');
    expect(mail.text).toContain('2 files, 2.4 MB in total:');
    expect(mail.text).toContain('- cover.png (2.4 MB)');
    expect(mail.text).toContain('- notes <b>.txt (840 bytes)');
    expect(mail.text).toContain('They can be downloaded until 31 March 2026.');
    expect(mail.text).toContain('Open the files: https://app.example.com/transfer/t1/package#invite=tok');
    expect(mail.html).toContain('<strong>Ana Lima (@ana)</strong> sent you “Q3 designs”');
    expect(mail.html).toContain('<li>cover.png <span style="color:#555">(2.4 MB)</span></li>');
    expect(mail.html).toContain('until 31 March 2026');
  });

  it('escapes the sender-written message, title, name and file names in HTML', () => {
    // Prepare
    const data = { ...DATA, sender: { name: 'Ann "<i>"', username: 'ann' }, title: '<img src=x onerror=alert(1)>' };

    // Act
    const mail = transferInviteEmail.template(data);

    // Assess
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<i>');
    expect(mail.html).toContain('Hi! &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; see the cover');
    expect(mail.html).toContain('notes &lt;b&gt;.txt');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Ann &quot;&lt;i&gt;&quot; (@ann)');
  });

  it('names a sender with no display name by username, and counts the files past the listed ones', () => {
    // Prepare
    const files = Array.from({ length: INVITE_LISTED_FILES + 3 }, (_, index) => ({ name: `f${index}.txt`, size: 1_000 }));

    // Act
    const mail = transferInviteEmail.template({ ...DATA, sender: { name: '', username: 'ana' }, title: '', message: '', files });

    // Assess
    expect(mail.subject).toBe(`@ana sent you ${INVITE_LISTED_FILES + 3} files`);
    expect(mail.text).toContain(`- f${INVITE_LISTED_FILES - 1}.txt (1.0 KB)`);
    expect(mail.text).not.toContain(`f${INVITE_LISTED_FILES}.txt`);
    expect(mail.text).toContain('- and 3 more files');
    expect(mail.text).not.toContain('Their message:');
  });

  it('comes from the transfers sender at the mail domain, not the login sender', async () => {
    // Prepare
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    const mailer = createMailer({ from: LOGIN_FROM });

    // Act
    await runAsFunction(emailScope(), () =>
      sendMail(db, transferInviteEmail, { to: 'guest@example.com', data: () => DATA, mailer }),
    );

    // Assess
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Source).toBe('TopPubs <transfers@toppubs.example>');
  });
});

describe('the transfers sender address', () => {
  it('is MAIL_FROM’s name at transfers@ its domain unless TRANSFER_MAIL_FROM says otherwise', () => {
    // Prepare
    const env = { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com', MAIL_FROM: LOGIN_FROM };

    // Act
    const derived = loadConfig(env).transferMailFrom;
    const set = loadConfig({ ...env, TRANSFER_MAIL_FROM: 'Files <files@example.org>' }).transferMailFrom;

    // Assess
    expect(derived).toBe('TopPubs <transfers@toppubs.example>');
    expect(set).toBe('Files <files@example.org>');
    expect(senderAt('transfers', 'login@mail.example')).toBe('transfers@mail.example');
    expect(() => loadConfig({ TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com' }).transferMailFrom).toThrow(
      /MAIL_FROM/,
    );
  });
});
