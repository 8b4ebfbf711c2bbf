import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import type { Db } from '../../functions/lib/db/service';
import { claimCooldown, consumeRateLimit } from '../../functions/lib/rate-limit';
import { loginEmail } from '../../functions/account/lib/emails';
import { issueLoginLink, LOGIN_LINK_LIFETIME_SECONDS, spendLoginLink } from '../../functions/account/lib/login-links';
import { sendMail } from '../../functions/lib/mailer';
import { createTestTable } from '../support/dynamo';

let db: Db;
// A whole second, so the second-based expiry boundary sits exactly LOGIN_LINK_LIFETIME_SECONDS later.
const ISSUED_AT = new Date('2026-03-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(ISSUED_AT.getTime() + offsetMs);

beforeAll(async () => {
  // issueLoginLink builds the link from the config (web origin), read once from the environment.
  process.env.TABLE_NAME ??= 'login-links-test';
  process.env.ALLOWED_ORIGINS ??= 'https://app.example.com';
  ({ db } = await createTestTable());
});

describe('issuing a login link', () => {
  it('stores only the SHA-256 of a 256-bit token, with the address lower-cased and a 10-minute expiry', async () => {
    // Act
    const link = await issueLoginLink(db, { email: 'Reader@Example.COM', contextData: { from: 'modal' }, now: ISSUED_AT });

    // Assess
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32);
    expect(link.url).toMatch(/\/login\/confirm#token=[\w-]{43}$/);
    expect(link.url.endsWith(`#token=${link.token}`)).toBe(true);
    const { data: stored } = await db.entities.oneTimeToken.get({ purpose: 'login', tokenHash: hashToken(link.token) }).go();
    expect(stored).toMatchObject({
      payload: JSON.stringify({ email: 'reader@example.com', contextData: { from: 'modal' } }),
      expiresAt: ISSUED_AT.getTime() / 1000 + LOGIN_LINK_LIFETIME_SECONDS,
    });
    expect(JSON.stringify(stored)).not.toContain(link.token);
  });
});

describe('spending a login link', () => {
  it('logs in once: the second use is refused as already used', async () => {
    // Prepare
    const { token } = await issueLoginLink(db, { email: 'once@example.com', now: ISSUED_AT });

    // Act
    const first = await spendLoginLink(db, token, at(1_000));
    const second = spendLoginLink(db, token, at(2_000));

    // Assess
    expect(first.email).toBe('once@example.com');
    await expect(second).rejects.toMatchObject({ statusCode: 400, code: 'LOGIN_LINK_USED' });
  });

  it('works until the last millisecond of its 10 minutes and not at the 10-minute mark', async () => {
    // Prepare
    const lastMoment = await issueLoginLink(db, { email: 'edge@example.com', now: ISSUED_AT });
    const atDeadline = await issueLoginLink(db, { email: 'edge@example.com', now: ISSUED_AT });
    const lifetimeMs = LOGIN_LINK_LIFETIME_SECONDS * 1000;

    // Act
    const spent = await spendLoginLink(db, lastMoment.token, at(lifetimeMs - 1));
    const expired = spendLoginLink(db, atDeadline.token, at(lifetimeMs));

    // Assess
    expect(spent.email).toBe('edge@example.com');
    await expect(expired).rejects.toMatchObject({
      statusCode: 400,
      code: 'LOGIN_LINK_EXPIRED',
      message: 'This login link has expired (links work for 10 minutes). Request a new one.',
    });
  });

  it('refuses an unknown or tampered token without saying more', async () => {
    // Prepare
    const { token } = await issueLoginLink(db, { email: 'tamper@example.com', now: ISSUED_AT });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

    // Act
    const outcome = spendLoginLink(db, tampered, at(1_000));

    // Assess
    await expect(outcome).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_LOGIN_LINK',
      message: 'This login link is not valid. Request a new one.',
    });
  });

  it('lets exactly one of several concurrent spends of one link win', async () => {
    // Prepare
    const { token } = await issueLoginLink(db, { email: 'race@example.com', now: ISSUED_AT });

    // Act
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => spendLoginLink(db, token, at(1_000))));

    // Assess
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const losers = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(losers).toHaveLength(4);
    for (const loser of losers) expect(loser.reason).toMatchObject({ code: 'LOGIN_LINK_USED' });
  });
});

describe('rate limits', () => {
  it('counts calls in a fixed window, atomically under concurrency, and says when the window ends', async () => {
    // Prepare
    const now = new Date('2026-03-01T12:00:10.000Z');

    // Act
    const decisions = await Promise.all(
      Array.from({ length: 8 }, () => consumeRateLimit(db, { key: 'test:window', limit: 5, windowSeconds: 60, now })),
    );
    const nextWindow = await consumeRateLimit(db, { key: 'test:window', limit: 5, windowSeconds: 60, now: at(60_000) });

    // Assess
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(decisions.filter((decision) => !decision.allowed).every((decision) => decision.retryAfterSeconds === 50)).toBe(true);
    expect(nextWindow.allowed).toBe(true);
  });

  it('keeps a cooldown for its full length from the allowed call, across window boundaries', async () => {
    // Prepare
    const first = new Date('2026-03-01T12:00:59.000Z');

    // Act
    const allowed = await claimCooldown(db, { key: 'test:cooldown', seconds: 60, now: first });
    const twoSecondsLater = await claimCooldown(db, {
      key: 'test:cooldown',
      seconds: 60,
      now: new Date(first.getTime() + 2_000),
    });
    const aMinuteLater = await claimCooldown(db, { key: 'test:cooldown', seconds: 60, now: new Date(first.getTime() + 60_000) });

    // Assess
    expect(allowed).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(twoSecondsLater).toEqual({ allowed: false, retryAfterSeconds: 58 });
    expect(aMinuteLater.allowed).toBe(true);
  });

  it('allows one login email per address per minute, whatever the letter case, and other addresses meanwhile', async () => {
    // Prepare: a transport that accepts every mail.
    const mailer = { send: async () => ({ messageId: 'sent' }) };
    const send = (to: string, now: Date) =>
      sendMail(db, loginEmail, { to, clientIp: '203.0.113.40', data: () => ({ url: 'https://app.example.com/x' }), now, mailer });

    // Act
    await send('limit@example.com', ISSUED_AT);
    const again = send('LIMIT@example.com', at(15_000));
    const other = send('other@example.com', at(15_000));

    // Assess
    await expect(again).rejects.toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'A login link was just sent to this address. Wait 45 seconds before asking for another.',
      details: { retryAfterSeconds: 45 },
    });
    await expect(other).resolves.toEqual({ messageId: 'sent' });
  });
});
