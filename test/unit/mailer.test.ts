import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../functions/lib/mailer';
import { decodeQuotedPrintable, encodeQuotedPrintable, parseEml } from '../../functions/lib/mail/eml';

const sesMock = mockClient(SESClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => sesMock.restore());
const FROM = 'TopPubs <login@toppubs.example>';
const LINK = 'https://app.example.com/login/confirm#token=AbC_-123xyz=padded';
const message = {
  to: 'reader@example.com',
  subject: 'Your TopPubs login link',
  text: `Log in with this link:\n\n${LINK}\n\nThis link works once, for 10 minutes.`,
  html: `<p><a href="${LINK}">Log in</a></p>`,
};

afterEach(() => {
  sesMock.reset();
});

describe('mailer in AWS (SES)', () => {
  it('sends one SendEmail with the configured sender, text and html', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-123' });
    const mailer = createMailer({ from: FROM });

    // Act
    const sent = await mailer.send(message);

    // Assess
    expect(sent.messageId).toBe('ses-123');
    const calls = sesMock.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      Source: FROM,
      Destination: { ToAddresses: ['reader@example.com'] },
      Message: {
        Subject: { Data: 'Your TopPubs login link', Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          Html: { Data: message.html, Charset: 'UTF-8' },
        },
      },
    });
  });

  it('names the configuration set on every send, so SES publishes its bounces and complaints', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'ses-124' });
    const mailer = createMailer({ from: FROM, configurationSet: 'toppubs-prod-mail' });

    // Act
    await mailer.send(message);

    // Assess
    expect(sesMock.commandCalls(SendEmailCommand)[0]?.args[0].input).toMatchObject({
      Source: FROM,
      ConfigurationSetName: 'toppubs-prod-mail',
    });
  });

  it('lets an SES failure reach the caller', async () => {
    // Prepare
    sesMock.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified'), { name: 'MessageRejected' }));
    const mailer = createMailer({ from: FROM });

    // Act
    const outcome = mailer.send(message);

    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'MessageRejected' });
  });
});

describe('mailer locally (outbox folder)', () => {
  it('writes one .eml file named by time and never calls SES', async () => {
    // Prepare
    const outboxDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ from: FROM, outboxDir });

    try {
      // Act
      const sent = await mailer.send(message);

      // Assess
      expect(sesMock.calls()).toHaveLength(0);
      const files = readdirSync(outboxDir);
      expect(files).toEqual([sent.messageId]);
      expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z-[0-9a-f]{8}\.eml$/);
      const raw = readFileSync(join(outboxDir, files[0] as string), 'utf8');
      expect(raw).toContain(`From: ${FROM}\r\n`);
      expect(raw).toContain('To: reader@example.com\r\n');
      expect(raw).toContain('Subject: Your TopPubs login link\r\n');
      expect(raw).toMatch(/\r\nDate: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\n/);
      expect(raw).toMatch(/\r\nMessage-ID: <[0-9a-f]{32}@toppubs\.local>\r\n/);
      expect(raw).toContain('MIME-Version: 1.0\r\n');
      expect(raw).toMatch(/Content-Type: multipart\/alternative;\r\n boundary="[^"]+"/);
      // Every line fits the 78-character limit of RFC 5322 (quoted-printable wraps long ones).
      expect(raw.split('\r\n').every((line) => line.length <= 78)).toBe(true);
      const parsed = parseEml(raw);
      expect(parsed.text).toBe(message.text);
      expect(parsed.html).toBe(message.html);
    } finally {
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});

describe('quoted-printable', () => {
  it.each([
    ['plain ASCII', 'hello world'],
    ['= signs and a long URL', `token=${'x'.repeat(200)}=end`],
    ['non-ASCII', 'Grüße – café ☕'],
    ['trailing white space', 'line with space \nnext\t'],
  ])('round-trips %s', (_name, text) => {
    // Act
    const encoded = encodeQuotedPrintable(text);

    // Assess
    expect(encoded.split('\r\n').every((line) => line.length <= 76)).toBe(true);
    expect(decodeQuotedPrintable(encoded).replace(/\r\n/g, '\n')).toBe(text);
  });

  it('keeps header values on one line (no header injection)', async () => {
    // Prepare
    const outboxDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ from: FROM, outboxDir });

    try {
      // Act
      await mailer.send({ ...message, subject: 'Hi\r\nBcc: victim@example.com' });

      // Assess
      const raw = readFileSync(join(outboxDir, readdirSync(outboxDir)[0] as string), 'utf8');
      expect(raw).not.toMatch(/^Bcc:/m);
      expect(parseEml(raw).headers.subject).toBe('Hi Bcc: victim@example.com');
    } finally {
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
