import { beforeAll, describe, expect, it } from 'vitest';
import { loginEmail, loginEmailCallerLimits } from '../../functions/account/lib/emails';
import type { Db } from '../../functions/lib/db/service';
import type { HttpError } from '../../functions/lib/errors';
import { sendMail } from '../../functions/lib/mailer';
import { clientNetwork, describeWait } from '../../functions/lib/rate-limit';
import { createTestTable } from '../support/dynamo';
import { uniqueEmail } from '../support/unique';

let db: Db;
/** A transport that accepts every mail. */
const mailer = { send: async () => ({ messageId: 'sent' }) };
// 09:00:00 UTC: 54,000 seconds before midnight, at the start of a 10-minute window.
const MORNING = new Date('2026-03-02T09:00:00.000Z');
const at = (offsetSeconds: number) => new Date(MORNING.getTime() + offsetSeconds * 1000);

function sendLoginLink(options: { to: string; ip: string; now: Date }) {
  return sendMail(db, loginEmail, {
    to: options.to,
    clientIp: options.ip,
    callerLimits: loginEmailCallerLimits(options.ip),
    data: () => ({ url: 'https://app.example.com/login/confirm#token=t' }),
    now: options.now,
    mailer,
  }).then(
    () => ({ status: 200, message: '', retryAfter: 0 }),
    (error: HttpError) => ({
      status: error.statusCode,
      message: error.message,
      retryAfter: error.details.retryAfterSeconds as number,
    }),
  );
}

beforeAll(async () => {
  process.env.TABLE_NAME ??= 'login-email-limits-test';
  process.env.ALLOWED_ORIGINS ??= 'https://app.example.com';
  ({ db } = await createTestTable());
});

describe('the client network behind a source IP', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['not an address', 'unknown'],
  ])('%s counts as %s', (sourceIp, network) => {
    // Assess
    expect(clientNetwork(sourceIp)).toBe(network);
  });
});

describe('login links per client network', () => {
  it('allows 10 per 10 minutes and 50 a day, then refuses until midnight UTC', async () => {
    // Prepare: 10 links in each of five 10-minute windows, each to another address.
    const ip = '198.51.100.7';
    const allowed: number[] = [];
    for (let window = 0; window < 5; window += 1) {
      for (let index = 0; index < 10; index += 1) {
        allowed.push((await sendLoginLink({ to: uniqueEmail(), ip, now: at(window * 600 + index) })).status);
      }
    }

    // Act
    const eleventhInWindow = await sendLoginLink({ to: uniqueEmail(), ip, now: at(4 * 600 + 30) });
    const fiftyFirst = await sendLoginLink({ to: uniqueEmail(), ip, now: at(5 * 600) });
    const otherNetwork = await sendLoginLink({ to: uniqueEmail(), ip: '198.51.100.8', now: at(5 * 600) });

    // Assess
    expect(allowed).toEqual(Array(50).fill(200));
    expect(eleventhInWindow).toEqual({
      status: 429,
      message: 'Too many login links were asked for from your network. Try again in 10 minutes.',
      retryAfter: 570,
    });
    expect(fiftyFirst).toEqual({
      status: 429,
      message: 'Too many login links were asked for from your network today. Try again in 15 hours.',
      retryAfter: 54_000 - 3_000,
    });
    expect(otherNetwork.status).toBe(200);
  });

  it('counts every address of one IPv6 /64 as one client', async () => {
    // Prepare
    for (let index = 0; index < 10; index += 1) {
      await sendLoginLink({ to: uniqueEmail(), ip: `2001:db8:aa:bb::${index + 1}`, now: at(index) });
    }

    // Act
    const rotated = await sendLoginLink({ to: uniqueEmail(), ip: '2001:db8:aa:bb:ffff:1:2:3', now: at(20) });

    // Assess
    expect(rotated.status).toBe(429);
  });
});

describe('login links per address', () => {
  it('keeps to one a minute per address, whichever network asks', async () => {
    // Prepare
    const email = uniqueEmail();
    const first = await sendLoginLink({ to: email, ip: '192.0.2.1', now: at(0) });

    // Act
    const otherNetworkTooSoon = await sendLoginLink({ to: email, ip: '2001:db8:77::1', now: at(30) });
    const otherNetworkAMinuteLater = await sendLoginLink({ to: email, ip: '2001:db8:77::1', now: at(60) });

    // Assess
    expect(first.status).toBe(200);
    expect(otherNetworkTooSoon).toEqual({
      status: 429,
      message: 'A login link was just sent to this address. Wait 30 seconds before asking for another.',
      retryAfter: 30,
    });
    expect(otherNetworkAMinuteLater.status).toBe(200);
  });

  it('allows 10 a day per address from one network, then refuses that network until midnight UTC', async () => {
    // Prepare: 10 links a minute apart, all asked for from one network.
    const email = uniqueEmail();
    const attacker = '198.51.100.66';
    const sent: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      sent.push((await sendLoginLink({ to: email, ip: attacker, now: at(index * 61) })).status);
    }

    // Act
    const eleventh = await sendLoginLink({ to: email, ip: attacker, now: at(10 * 61) });
    const sameNetworkOtherAddress = await sendLoginLink({ to: uniqueEmail(), ip: attacker, now: at(10 * 61 + 1) });

    // Assess
    expect(sent).toEqual(Array(10).fill(200));
    expect(eleventh).toEqual({
      status: 429,
      message:
        'Too many login links for this address were asked for from your network. Try again in 15 hours, or log in another way.',
      retryAfter: 54_000 - 610,
    });
    expect(sameNetworkOtherAddress.status).toBe(200);
  });

  it('still sends the person their link from their own network when another network used up its share', async () => {
    // Prepare: someone else asks for 10 links to the victim's address, a minute apart, and an 11th.
    const victim = uniqueEmail();
    const attacker = '198.51.100.77';
    for (let index = 0; index < 11; index += 1) await sendLoginLink({ to: victim, ip: attacker, now: at(index * 61) });

    // Act: the victim asks from their own network (an IPv6 /64) later that morning.
    const own = await sendLoginLink({ to: victim, ip: '2001:db8:5:6::42', now: at(11 * 61 + 60) });
    const attackerAgain = await sendLoginLink({ to: victim, ip: attacker, now: at(12 * 61 + 120) });

    // Assess
    expect(own).toEqual({ status: 200, message: '', retryAfter: 0 });
    expect(attackerAgain.status).toBe(429);
    expect(attackerAgain.message).toMatch(/^Too many login links for this address were asked for from your network\./);
  });
});

describe('how long to wait, in words', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [3600, '1 hour'],
    [51_000, '15 hours'],
  ])('%i seconds read "%s"', (seconds, words) => {
    // Assess
    expect(describeWait(seconds)).toBe(words);
  });
});
