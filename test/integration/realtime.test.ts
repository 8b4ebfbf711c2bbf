import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../functions/lib/config';
import { getDb } from '../../functions/lib/db/service';
import { runAsFunction } from '../../functions/lib/function-environment';
import { pushToUser } from '../../functions/lib/realtime';
import { functionScope } from '../../infra/local/functions';
import { capabilitiesOf } from '../../shared/capabilities';
import { MAX_CONNECTIONS_PER_USER, REALTIME_LIMITS, userChannel } from '../../shared/realtime';
import type { RealtimeServerMessage } from '../../shared/schemas/realtime';
import { routes } from '../../shared/routes';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { listen, openListener, realtimeUrl } from '../support/realtime';
import { storyInTable } from '../support/stories';

const suite = apiSuite();
const origin = () => suite.runtime.url;

const connectionsOf = async (userId: string) =>
  (await getDb().entities.realtimeConnection.query.byUser({ userId }).go({ consistent: true })).data;

const until = async (check: () => Promise<boolean>, timeoutMs = 3_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolveWait) => setTimeout(resolveWait, 25));
  }
};

const unseenTotal = (total: number) => (message: RealtimeServerMessage) =>
  message.type === 'unseen-counts' && message.counts.total === total;

describe('the realtime client route', () => {
  it("answers the endpoint and a one-minute ticket for the caller's own channel", async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const before = Date.now();

    // Act
    const implicit = await suite.api.call(routes.realtimeClient, { as: ana });
    const explicit = await suite.api.call(routes.realtimeClient, { as: ana, query: { channel: userChannel(ana.userId) } });

    // Assess
    expectOk(implicit);
    expect(implicit.body).toMatchObject({
      endpoint: '/realtime',
      channel: `user-${ana.userId}`,
    });
    const lifetime = Date.parse(implicit.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(55_000);
    expect(lifetime).toBeLessThanOrEqual(61_000);
    expectOk(explicit);
    expect(explicit.body.ticket).not.toBe(implicit.body.ticket);
  });

  it("refuses a ticket for another person's channel, and anyone signed out", async () => {
    // Prepare
    const [ana, bo] = await Promise.all([suite.api.signIn('ana'), suite.api.signIn('bo')]);

    // Act
    const others = await suite.api.call(routes.realtimeClient, { as: ana, query: { channel: userChannel(bo.userId) } });
    const anonymous = await suite.api.call(routes.realtimeClient);

    // Assess
    expectError(others, 403);
    expect(others.body.message).toBe('You can only listen on your own channel.');
    expectError(anonymous, 401);
  });
});

describe('connecting', () => {
  it('opens one connection per ticket: a ticket used twice, a made-up one or none is refused with 401', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const ticket = await suite.api.call(routes.realtimeClient, { as: ana });
    expectOk(ticket);
    const url = realtimeUrl(ticket.body.endpoint, ticket.body.ticket, origin());
    const endpoint = realtimeUrl(ticket.body.endpoint, '', origin()).replace(/\?.*$/, '');

    // Act
    const first = await openListener(url, origin());
    const again = await openListener(url, origin()).catch((error: { status?: number }) => error.status);
    const madeUp = await openListener(`${endpoint}?ticket=made-up`, origin()).catch((error: { status?: number }) => error.status);
    const none = await openListener(endpoint, origin()).catch((error: { status?: number }) => error.status);

    // Assess
    expect(again).toBe(401);
    expect(madeUp).toBe(401);
    expect(none).toBe(401);
    const connections = await connectionsOf(ana.userId);
    expect(connections).toHaveLength(1);
    // The user item says until when someone may listen (pushes to nobody read no connections).
    const user = await getDb().entities.user.get({ userId: ana.userId }).go({ consistent: true });
    expect(user.data?.realtimeUntil).toBe(connections[0]?.expiresAt);
    expect(user.data?.realtimeUntil).toBeGreaterThan(Date.now() / 1000 + REALTIME_LIMITS.maxConnectionSeconds - 60);
    await first.close();
  });

  it('refuses the ticket of an account deleted since it was given, with 401, and opens nothing', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const ticket = await suite.api.call(routes.realtimeClient, { as: ana });
    expectOk(ticket);
    expectOk(await suite.api.call(routes.deleteAccount, { as: ana }));

    // Act
    const refused = await openListener(realtimeUrl(ticket.body.endpoint, ticket.body.ticket, origin()), origin()).catch(
      (error: { status?: number }) => error.status,
    );

    // Assess: no connection, and no user item brought back by the connection's write
    expect(refused).toBe(401);
    expect(await connectionsOf(ana.userId)).toHaveLength(0);
    expect((await getDb().entities.user.get({ userId: ana.userId }).go({ consistent: true })).data).toBeNull();
  });

  it("refuses another site's page even with a good ticket (cross-site WebSocket hijacking)", async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');

    // Act
    const refused = await listen(suite.api, ana, { origin: 'https://evil.example', site: origin() }).catch(
      (error: { status?: number }) => error.status,
    );

    // Assess
    expect(refused).toBe(403);
    expect(await connectionsOf(ana.userId)).toHaveLength(0);
  });

  it('refuses a 21st connection of one person with 429, keeping its ticket for when a tab closes', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const open = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_USER }, () => listen(suite.api, ana, { origin: origin() })),
    );
    const ticket = await suite.api.call(routes.realtimeClient, { as: ana });
    expectOk(ticket);
    const url = realtimeUrl(ticket.body.endpoint, ticket.body.ticket, origin());

    // Act
    const refused = await openListener(url, origin()).catch((error: { status?: number }) => error.status);
    await open[0]?.close();
    await until(async () => (await connectionsOf(ana.userId)).length < MAX_CONNECTIONS_PER_USER);
    const afterClose = await openListener(url, origin());

    // Assess
    expect(refused).toBe(429);
    expect(await connectionsOf(ana.userId)).toHaveLength(MAX_CONNECTIONS_PER_USER);
    await Promise.all([...open.slice(1), afterClose].map((listener) => listener.close()));
  });

  it('answers a ping with a pong and anything else with an error message, keeping the connection', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const listener = await listen(suite.api, ana, { origin: origin() });

    // Act
    listener.socket.send('{"action":"subscribe"}');
    const error = await listener.next((message) => message.type === 'error');
    listener.socket.send('{"action":"ping"}');
    const pong = await listener.next((message) => message.type === 'pong');

    // Assess
    expect(error).toEqual({ type: 'error', message: 'Send {"action":"ping"}: nothing else is understood.' });
    expect(pong).toEqual({ type: 'pong' });
    await listener.close();
  });

  it('forgets a closed connection at once', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const listener = await listen(suite.api, ana, { origin: origin() });
    expect(await connectionsOf(ana.userId)).toHaveLength(1);

    // Act
    await listener.close();

    // Assess
    await until(async () => (await connectionsOf(ana.userId)).length === 0);
  });
});

describe('live unseen counts', () => {
  let sharer: SignedInUser;
  let reader: SignedInUser;

  const openAndLike = async (storyId: string) => {
    await suite.api.call(routes.openStory, { params: { id: storyId }, as: reader });
    expectOk(await suite.api.call(routes.likeStory, { params: { id: storyId, status: 'on' }, as: reader }));
  };

  it('tells every open tab of the recipient the new count when someone likes their story or follows them', async () => {
    // Prepare
    [sharer, reader] = await Promise.all([suite.api.signIn('sharer'), suite.api.signIn('reader')]);
    const storyId = await storyInTable(sharer, 'Live counts');
    const [tab, otherTab, readersTab] = await Promise.all([
      listen(suite.api, sharer, { origin: origin() }),
      listen(suite.api, sharer, { origin: origin() }),
      listen(suite.api, reader, { origin: origin() }),
    ]);

    // Act
    const liked = Date.now();
    await openAndLike(storyId);
    const afterLike = await tab.next(unseenTotal(1), 1_000);
    const delay = Date.now() - liked;
    await otherTab.next(unseenTotal(1), 1_000);
    expectOk(await suite.api.call(routes.followUser, { params: { userId: sharer.userId, status: 'on' }, as: reader }));
    const afterFollow = await tab.next(unseenTotal(2), 1_000);

    // Assess
    expect(afterLike).toEqual({
      type: 'unseen-counts',
      counts: { numUnseenNotifications: 1, ssoAppNumUnseenNotifications: 0, total: 1 },
    });
    expect(afterFollow.type).toBe('unseen-counts');
    expect(delay).toBeLessThan(1_000);
    // Nothing happened to the reader.
    expect(readersTab.messages).toEqual([]);
    await Promise.all([tab.close(), otherTab.close(), readersTab.close()]);
  });

  it("quiets the bell in the person's other tabs when one tab marks everything seen", async () => {
    // Prepare
    const tab = await listen(suite.api, sharer, { origin: origin() });
    const screen = await suite.api.call(routes.getNotificationsScreen, { as: sharer });
    expectOk(screen);

    // Act
    const marked = await suite.api.call(routes.markNotificationsSeen, {
      as: sharer,
      body: { ids: screen.body.unseen.items.map((item) => item.id) },
    });
    const quiet = await tab.next(unseenTotal(0), 1_000);

    // Assess
    expectOk(marked);
    expect(quiet).toEqual({
      type: 'unseen-counts',
      counts: { numUnseenNotifications: 0, ssoAppNumUnseenNotifications: 0, total: 0 },
    });
    await tab.close();
  });

  it('forgets a connection API Gateway says is gone (a lost $disconnect), once past its handshake', async () => {
    // Prepare
    const ana = await suite.api.signIn('ana');
    const connectedAt = new Date(Date.now() - 60_000).toISOString();
    await getDb()
      .entities.realtimeConnection.create({
        userId: ana.userId,
        connectionId: 'lost-connection',
        channel: userChannel(ana.userId),
        connectedAt,
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      })
      .go();
    const scope = functionScope('test-pusher', capabilitiesOf({ realtime: true }, { table: 'read-write' }), {
      common: { TABLE_NAME: suite.runtime.tableName, ALLOWED_ORIGINS: origin() },
      email: {},
      queues: {},
      bucket: {},
      payments: {},
      realtime: { REALTIME_MANAGEMENT_ENDPOINT: `http://127.0.0.1:${suite.runtime.port}/__local/realtime` },
      settings: {},
    });

    // Act
    const delivered = await runAsFunction(scope, () =>
      pushToUser(getDb(), ana.userId, {
        type: 'unseen-counts',
        counts: { numUnseenNotifications: 1, ssoAppNumUnseenNotifications: 0, total: 1 },
      }),
    );

    // Assess
    expect(delivered).toBe(0);
    expect(await connectionsOf(ana.userId)).toHaveLength(0);
  });

  it('cannot push from a function without the realtime capability: it has no endpoint, and says so', async () => {
    // Prepare
    const scope = functionScope('test-no-realtime', capabilitiesOf({}, { table: 'read-write' }), {
      common: { TABLE_NAME: suite.runtime.tableName, ALLOWED_ORIGINS: origin() },
      email: {},
      queues: {},
      bucket: {},
      payments: {},
      realtime: { REALTIME_MANAGEMENT_ENDPOINT: `http://127.0.0.1:${suite.runtime.port}/__local/realtime` },
      settings: {},
    });

    // Act
    const pushed = runAsFunction(scope, () => pushToUser(getDb(), 'someone', { type: 'pong' }));

    // Assess
    await expect(pushed).rejects.toThrow(ConfigError);
    await expect(pushed).rejects.toThrow('REALTIME_MANAGEMENT_ENDPOINT');
  });
});
