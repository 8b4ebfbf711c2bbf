import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { type ApiClient, createApiClient } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const USER = '/api/i/user';

let runtime: TestRuntime;
let api: ApiClient;

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

async function answer(response: Promise<Response>): Promise<Answer> {
  const resolved = await response;
  const text = await resolved.text();
  return { status: resolved.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Logs a new address in: a login link from the issuer, spent over HTTP by the confirm endpoint. */
const logIn = () => api.signIn('ids');

const report = (token: string, body: Record<string, unknown>) =>
  answer(runtime.post(`${USER}/me/mod/report/object`, { reason: 'spam', ...body }, { cookie: `ssoat=${token}` }));

const reportsOf = async (objectId: string) =>
  (await getDb().entities.report.query.byObject({ objectType: 'user', objectId }).go()).data;

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 50 });
  api = createApiClient(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

describe('reporting a user', () => {
  it('keeps one report per reporter and user, whatever the letter case of the id', async () => {
    // Prepare
    const [reporter, reported] = [await logIn(), await logIn()];

    // Act
    const upper = await report(reporter.token, { objectType: 'user', objectId: reported.userId.toUpperCase() });
    const lower = await report(reporter.token, { objectType: 'user', objectId: reported.userId });

    // Assess
    expect(upper).toEqual({ status: 200, json: { reported: true, isNew: true } });
    expect(lower).toEqual({ status: 200, json: { reported: true, isNew: false } });
    const stored = await reportsOf(reported.userId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ objectId: reported.userId, reporterId: reporter.userId });
    expect(await reportsOf(reported.userId.toUpperCase())).toEqual([]);
  });

  it('refuses a report of yourself, in any letter case, and stores nothing', async () => {
    // Prepare
    const me = await logIn();

    // Act
    const sameCase = await report(me.token, { objectType: 'user', objectId: me.userId });
    const otherCase = await report(me.token, { objectType: 'user', objectId: ` ${me.userId.toUpperCase()} ` });

    // Assess
    for (const refused of [sameCase, otherCase]) {
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: 'BAD_REQUEST', message: 'You cannot report yourself.' });
    }
    expect(await reportsOf(me.userId)).toEqual([]);
  });
});

describe('user ids in other requests', () => {
  it('are the same id in any letter case: listing, blocking and reading users', async () => {
    // Prepare
    const [me, other] = [await logIn(), await logIn()];
    const shouted = other.userId.toUpperCase();

    // Act
    const listed = await answer(runtime.post(`${USER}/users/v`, { ids: [shouted, other.userId] }));
    const blocked = await answer(
      runtime.post(`${USER}/me/mod/interact-user/${shouted}/block`, undefined, { cookie: `ssoat=${me.token}` }),
    );
    const username = await answer(runtime.get(`${USER}/user/${shouted}/v/username`));

    // Assess
    expect(listed.status).toBe(200);
    expect((listed.json.users as { userId: string }[]).map((user) => user.userId)).toEqual([other.userId]);
    expect(blocked).toEqual({ status: 200, json: { userId: other.userId, blocked: true } });
    expect(username.json).toMatchObject({ userId: other.userId });
  });
});
