import { describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { SESSION_TOUCH_INTERVAL_MS } from '../../functions/lib/sessions';
import { routes } from '../../shared/routes';
import { expectOk, type Session } from '../support/api-client';
import { apiSuite } from '../support/api-suite';

const suite = apiSuite();

const storedLastUsedAt = async (session: Session) =>
  (
    await getDb()
      .entities.session.get({ tokenHash: hashToken(session.token) })
      .go({ consistent: true })
  ).data?.lastUsedAt ?? '';

/** Moves the session's last use back in time, as if the requests since sign-in had been long ago. */
async function lastUsedAgo(session: Session, ms: number): Promise<string> {
  await getDb()
    .entities.session.patch({ tokenHash: hashToken(session.token) })
    .set({ lastUsedAt: new Date(Date.now() - ms).toISOString() })
    .go();
  return storedLastUsedAt(session);
}

async function thisDevice(session: Session) {
  const listed = await suite.api.call(routes.listSessions, { as: session });
  expectOk(listed);
  return listed.body.sessions.find((row) => row.isCurrent);
}

describe('"last used" of a session', () => {
  it('moves on when the session is used after the five-minute window', async () => {
    // Prepare: signed in 25 minutes ago, by the stored item's clock.
    const me = await suite.api.signIn('last-used');
    const signedInAt = await lastUsedAgo(me, 25 * 60_000);

    // Act: the app's first call on a page load (a route that may write the table).
    const before = Date.now();
    expectOk(await suite.api.call(routes.getMe, { as: me }));
    const listed = await thisDevice(me);

    // Assess
    expect(Date.parse(listed?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(listed?.lastUsedAt ?? '')).toBeGreaterThan(Date.parse(signedInAt) + 20 * 60_000);
  });

  it('is written at most once per window: a use within it leaves the stored time as it is', async () => {
    // Prepare: last used a minute ago, well inside the window.
    const me = await suite.api.signIn('last-used-recent');
    const recent = await lastUsedAgo(me, 60_000);

    // Act
    const answer = await suite.api.call(routes.getMe, { as: me });

    // Assess
    expectOk(answer);
    expect(SESSION_TOUCH_INTERVAL_MS).toBe(5 * 60_000);
    expect(await storedLastUsedAt(me)).toBe(recent);
  });

  it('answers every one of several requests that find the session due at once (only one write lands)', async () => {
    // Prepare
    const me = await suite.api.signIn('last-used-burst');
    const aged = await lastUsedAgo(me, 10 * 60_000);

    // Act: the requests after the first see its write's condition fail, which is no error.
    const answers = await Promise.all(Array.from({ length: 4 }, () => suite.api.call(routes.getMe, { as: me })));

    // Assess
    for (const answer of answers) expectOk(answer);
    expect(Date.parse(await storedLastUsedAt(me))).toBeGreaterThan(Date.parse(aged) + 5 * 60_000);
  });

  it('is left alone by read-only routes, and recorded by the next route that may write', async () => {
    // Prepare
    const me = await suite.api.signIn('last-used-read');
    const aged = await lastUsedAgo(me, 10 * 60_000);

    // Act
    expectOk(await suite.api.call(routes.getSettings, { as: me }));
    const afterRead = await storedLastUsedAt(me);
    expectOk(await suite.api.call(routes.getMe, { as: me }));
    const afterWriteRoute = await storedLastUsedAt(me);

    // Assess
    expect(afterRead).toBe(aged);
    expect(Date.parse(afterWriteRoute)).toBeGreaterThan(Date.parse(aged) + 5 * 60_000);
  });
});
