import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { type BodyOf, routes } from '../../shared/routes';
import {
  type Answer,
  type ApiClient,
  clearedSessionCookies,
  createApiClient,
  expectError,
  expectOk,
  SESSION_COOKIE,
  SIGNED_IN_HINT,
  sessionTokenOf,
} from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { mailTo } from '../support/mail';
import { uniqueEmail } from '../support/unique';

let runtime: TestRuntime;
let api: ApiClient;
let outboxDir: string;
/** Every answer's body, and every session token handed out, to check none ever leaks a token. */
const bodies: string[] = [];
const sessionTokens: string[] = [];

const sendLink = (email: string, body: BodyOf<typeof routes.sendLoginEmail> = {}) =>
  api.call(routes.sendLoginEmail, { query: { email }, body });
const confirm = (token: string) => api.call(routes.confirmLoginEmail, { body: { token } });
const me = (token: string) => api.call(routes.getMe, { as: { token } });

/** The session token a login answer sets, remembered for the leak check. */
function rememberSessionToken(login: Answer<typeof routes.confirmLoginEmail>): string {
  const token = sessionTokenOf(login);
  if (!token) throw new Error(`No session cookie in ${login.cookies.join(' | ')}`);
  sessionTokens.push(token);
  return token;
}

/** A page of the local runtime that is not part of the API (the mail outbox), its body remembered too. */
async function localPage(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${runtime.url}${path}`);
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, headers: response.headers, text };
}

/** The login token from the link in the latest email to an address, as the confirm page reads it. */
function tokenFromEmail(address: string): string {
  const latest = mailTo(outboxDir, address).at(-1);
  const token = /\/login\/confirm#token=([\w-]+)/.exec(latest?.text ?? '')?.[1];
  if (!token) throw new Error(`No login link in the email to ${address}`);
  return token;
}

/** A GET with the path sent exactly as written (fetch would fold the '..' segments away first). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: 'localhost', port: runtime.port, path, method: 'GET' }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime, { onAnswer: ({ text }) => bodies.push(text) });
  outboxDir = runtime.mailDir;
});

afterAll(async () => {
  await runtime?.close();
});

describe('login by emailed link on the local runtime', () => {
  const email = uniqueEmail('new-reader');
  let loginToken: string;
  let sessionToken: string;
  let userId: string;

  it('emails a link to an address with no account, without creating the account', async () => {
    // Act
    const sent = await sendLink(email, { contextData: { from: 'login-modal' } });

    // Assess
    expectOk(sent);
    expect(sent.body).toEqual({ sent: true });
    const mails = mailTo(outboxDir, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.headers.subject).toBe('Your TopPubs login link');
    expect(mails[0]?.text).toContain('This link works once, for 10 minutes. If you did not ask for it, ignore this email.');
    expect(mails[0]?.html).toContain('/login/confirm#token=');
    const { data: claim } = await getDb().entities.identityClaim.get({ kind: 'email', value: email }).go();
    expect(claim).toBeNull();
  });

  it('logs in with the link from the email: session cookie, and the account is created', async () => {
    // Prepare
    loginToken = tokenFromEmail(email);

    // Act
    const login = await confirm(loginToken);

    // Assess
    expectOk(login);
    expect(login.headers.get('cache-control')).toBe('no-store');
    expect(login.body).toMatchObject({ isNewAccount: true, user: { username: email.split('@')[0]?.replace(/[^a-z0-9_]/g, '') } });
    sessionToken = rememberSessionToken(login);
    userId = login.body.user.userId;
    // Beside the HttpOnly session, the hint the page reads to know it may ask who is signed in.
    expect(login.cookies).toEqual([expect.stringMatching(SESSION_COOKIE), expect.stringMatching(SIGNED_IN_HINT)]);
    const current = await me(sessionToken);
    expectOk(current);
    expect(current.body).toMatchObject({ userId, isSuperUser: false });
    // Sessions older than the hint get it from the first page that asks who they are.
    expect(current.cookies).toEqual([expect.stringMatching(SIGNED_IN_HINT)]);
  });

  it('refuses the same link a second time', async () => {
    // Act
    const again = await confirm(loginToken);

    // Assess
    expectError(again, 400);
    expect(again.body).toMatchObject({
      code: 'LOGIN_LINK_USED',
      message: 'This login link was already used. Request a new one.',
    });
    expect(again.cookies).toEqual([]);
  });

  it('logs the same address into the same account next time, with a new session token', async () => {
    // Prepare: a fresh link straight from the issuer, as the per-address cooldown blocks a second email for a minute.
    const { token } = await issueLoginLink(getDb(), { email });

    // Act
    const login = await confirm(token);

    // Assess
    expectOk(login);
    expect(login.body).toMatchObject({ isNewAccount: false, user: { userId } });
    const secondSession = rememberSessionToken(login);
    expect(secondSession).not.toBe(sessionToken);
    expectOk(await me(secondSession));
  });

  it('logs out: the cookie is cleared and the old session token no longer works', async () => {
    // Act
    const logout = await api.call(routes.logout, { as: { token: sessionToken } });
    const afterwards = await me(sessionToken);

    // Assess
    expectOk(logout);
    expect(logout.cookies).toEqual(clearedSessionCookies());
    expectError(afterwards, 401);
  });
});

describe('login links that cannot be used', () => {
  it('lands back on the page the login started from, and never on a logout or another site', async () => {
    // Prepare: links asked for from three pages (the login modal records the page with the link)
    const from = async (pagePath: string) =>
      (await issueLoginLink(getDb(), { email: uniqueEmail('return'), contextData: { pagePath } })).token;
    const [topic, logout, elsewhere] = await Promise.all([
      from('/topic/data-science?active=true'),
      from('/logout'),
      from('//evil.example/phish'),
    ]);

    // Act
    const answers = await Promise.all([confirm(topic), confirm(logout), confirm(elsewhere)]);

    // Assess
    for (const answer of answers) {
      expectOk(answer);
      rememberSessionToken(answer);
    }
    expect(answers.map((answer) => (answer.ok ? answer.body.returnTo : null))).toEqual([
      '/topic/data-science?active=true',
      '/',
      '/',
    ]);
  });

  it('says a link older than 10 minutes has expired', async () => {
    // Prepare
    const { token } = await issueLoginLink(getDb(), { email: uniqueEmail('late'), now: new Date(Date.now() - 11 * 60_000) });

    // Act
    const login = await confirm(token);

    // Assess
    expectError(login, 400);
    expect(login.body).toMatchObject({
      code: 'LOGIN_LINK_EXPIRED',
      message: 'This login link has expired (links work for 10 minutes). Request a new one.',
    });
  });

  it('says a tampered link is not valid', async () => {
    // Prepare
    const address = uniqueEmail('tamper');
    await sendLink(address);
    const token = tokenFromEmail(address);
    const tampered = `${token.slice(0, 10)}${token[10] === 'x' ? 'y' : 'x'}${token.slice(11)}`;

    // Act
    const login = await confirm(tampered);

    // Assess
    expectError(login, 400);
    expect(login.body).toMatchObject({ code: 'INVALID_LOGIN_LINK', message: 'This login link is not valid. Request a new one.' });
  });
});

describe('sending login emails', () => {
  it('allows one email per address per minute, and other addresses meanwhile', async () => {
    // Prepare
    const address = uniqueEmail('cooldown');
    expectOk(await sendLink(address));

    // Act
    const again = await sendLink(address.toUpperCase());
    const other = await sendLink(uniqueEmail('someone-else'));

    // Assess
    expectError(again, 429);
    expect(again.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(again.body.message).toMatch(
      /^A login link was just sent to this address\. Wait \d+ seconds? before asking for another\.$/,
    );
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(mailTo(outboxDir, address)).toHaveLength(1);
    expectOk(other);
  });

  it('sends the link whatever shape of context the page sends along, and gives it back at login', async () => {
    // Prepare: JSON that DynamoDB cannot hold as a map (an empty key, a number past its 38 digits).
    const email = uniqueEmail('odd-context');
    const contextData = {
      '': 'empty key',
      pagePath: '/stories',
      huge: 5.0742115839741885e50,
      tiny: 1.8e-135,
      nested: { '': [null] },
    };

    // Act
    const sent = await sendLink(email, { contextData });
    const login = await confirm(tokenFromEmail(email));

    // Assess
    expectOk(sent);
    expectOk(login);
    expect(login.body.returnTo).toBe('/stories');
  });

  it('names the email field when the address is malformed', async () => {
    // Act
    const sent = await sendLink('not-an-address');

    // Assess
    expectError(sent, 400);
    expect(sent.body.fields).toEqual([expect.objectContaining({ in: 'query', field: 'email' })]);
  });

  it('answers 503 when the email cannot be sent, and gives the address its minute back', async () => {
    // Prepare: a file where the outbox folder should be makes every send fail.
    const address = uniqueEmail('outage');
    const parked = `${outboxDir}.parked`;
    renameSync(outboxDir, parked);
    writeFileSync(outboxDir, 'not a folder');

    let failed: Answer<typeof routes.sendLoginEmail>;
    try {
      // Act
      failed = await sendLink(address);
    } finally {
      rmSync(outboxDir);
      renameSync(parked, outboxDir);
    }
    const retried = await sendLink(address);

    // Assess
    expectError(failed, 503);
    // Exactly this body: neither the file-system error nor the link rides along.
    expect(failed.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'We could not send the login email right now. Please try again in a minute.',
    });
    expectOk(retried);
    expect(mailTo(outboxDir, address)).toHaveLength(1);
  });
});

describe('the local mail page', () => {
  it('lists captured emails newest first and shows one with its link clickable', async () => {
    // Prepare
    const address = uniqueEmail('mail-page');
    await sendLink(address);
    const [mail] = mailTo(outboxDir, address);

    // Act
    const list = await localPage('/__local/mail');
    const view = await localPage(`/__local/mail/${encodeURIComponent(mail?.name ?? '')}`);

    // Assess
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toContain('text/html');
    expect(list.text).toContain('Your TopPubs login link');
    // The newest email (just sent) is the first row; its second cell is the recipient.
    expect(/<tbody><tr><td>[^<]*<\/td><td>([^<]*)<\/td>/.exec(list.text)?.[1]).toBe(address);
    expect(view.status).toBe(200);
    expect(view.text).toContain(address);
    expect(view.text).toMatch(/<a href="http[^"]+\/login\/confirm#token=[\w-]+">/);
  });

  it('refuses paths that try to leave the outbox folder', async () => {
    // Act
    const dotted = await rawGet('/__local/mail/../../etc/passwd');
    const encoded = await rawGet('/__local/mail/..%2F..%2Fetc%2Fpasswd');

    // Assess
    expect(dotted.status).toBe(400);
    expect(encoded.status).toBe(400);
    expect(dotted.body + encoded.body).not.toContain('root:');
  });
});

describe('session tokens', () => {
  it('never put a session token or its hash in any answer body', () => {
    // Assess
    expect(sessionTokens.length).toBeGreaterThanOrEqual(2);
    for (const token of sessionTokens) {
      for (const body of bodies) {
        expect(body).not.toContain(token);
        expect(body).not.toContain(hashToken(token));
      }
    }
  });
});
