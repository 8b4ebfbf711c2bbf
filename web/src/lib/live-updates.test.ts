import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { reconnectDelay, socketUrl, startLiveUpdates } from './live-updates';

/** A WebSocket the test drives: it opens, receives and closes when told. */
class FakeSocket extends EventTarget {
  sent: string[] = [];
  closedWith: number | undefined;
  constructor(readonly url: string) {
    super();
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
  }
  open() {
    this.dispatchEvent(new Event('open'));
  }
  receive(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }
  drop() {
    this.dispatchEvent(new Event('close'));
  }
}

const counts = (total: number) => ({ numUnseenNotifications: total, ssoAppNumUnseenNotifications: 0, total });

function harness(fetchTicket?: () => Promise<{ endpoint: string; ticket: string }>) {
  const sockets: FakeSocket[] = [];
  const received: unknown[] = [];
  const reconnected = vi.fn();
  let tickets = 0;
  const stop = startLiveUpdates({
    onCounts: (value) => received.push(value),
    onReconnected: reconnected,
    fetchTicket: fetchTicket ?? (async () => ({ endpoint: '/realtime', ticket: `ticket-${++tickets}` })),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    // Always the longest wait of the current step, so the test knows when a retry comes.
    random: () => 1,
    pageUrl: () => 'http://localhost:3000/stories',
  });
  return { sockets, received, reconnected, stop };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('live updates', () => {
  it('connects with its ticket and hands over the counts the server pushes, ignoring anything else', async () => {
    // Prepare
    const { sockets, received, stop } = harness();
    await vi.advanceTimersByTimeAsync(0);
    const socket = sockets[0] as FakeSocket;

    // Act
    socket.open();
    socket.receive({ type: 'unseen-counts', counts: counts(2) });
    socket.receive('not json');
    socket.receive({ type: 'unseen-counts', counts: { total: 'many' } });
    socket.receive({ type: 'pong' });

    // Assess
    expect(socket.url).toBe('ws://localhost:3000/realtime?ticket=ticket-1');
    expect(received).toEqual([counts(2)]);
    stop();
  });

  it('reconnects with a new ticket after the connection drops, waiting longer each time, and reads again once back', async () => {
    // Prepare
    const { sockets, reconnected, stop } = harness();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]?.open();

    // Act: the connection drops, and the first attempt to come back fails at once
    sockets[0]?.drop();
    await vi.advanceTimersByTimeAsync(999);
    const beforeFirstRetry = sockets.length;
    await vi.advanceTimersByTimeAsync(1);
    sockets[1]?.drop();
    await vi.advanceTimersByTimeAsync(1_999);
    const beforeSecondRetry = sockets.length;
    await vi.advanceTimersByTimeAsync(1);
    sockets[2]?.open();

    // Assess
    expect(beforeFirstRetry).toBe(1);
    expect(beforeSecondRetry).toBe(2);
    expect(sockets.map((socket) => new URL(socket.url).searchParams.get('ticket'))).toEqual(['ticket-1', 'ticket-2', 'ticket-3']);
    expect(reconnected).toHaveBeenCalledTimes(1);
    stop();
  });

  it('pings inside the idle timeout', async () => {
    // Prepare
    const { sockets, stop } = harness();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]?.open();

    // Act
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    // Assess
    expect(sockets[0]?.sent).toEqual(['{"action":"ping"}', '{"action":"ping"}']);
    stop();
  });

  it('stops for good when nobody is signed in any more (401), and retries other failures', async () => {
    // Prepare
    const signedOut = harness(async () => {
      throw new ApiError(401, 'Unauthorized', { message: 'Log in', code: 'UNAUTHORIZED' });
    });
    let calls = 0;
    const flaky = harness(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError(503, 'Service Unavailable', { message: 'Busy', code: 'SERVICE_UNAVAILABLE' });
      return { endpoint: 'wss://realtime.example/prod', ticket: 't' };
    });

    // Act
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect(signedOut.sockets).toHaveLength(0);
    expect(flaky.sockets.map((socket) => socket.url)).toEqual(['wss://realtime.example/prod?ticket=t']);
    signedOut.stop();
    flaky.stop();
  });

  it('closes the connection when stopped and never comes back', async () => {
    // Prepare
    const { sockets, stop } = harness();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]?.open();

    // Act
    stop();
    sockets[0]?.drop();
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect(sockets[0]?.closedWith).toBe(1000);
    expect(sockets).toHaveLength(1);
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s up to 30 s, a random part of that', () => {
    expect([0, 1, 2, 5, 10].map((attempt) => reconnectDelay(attempt, () => 1))).toEqual([1_000, 2_000, 4_000, 30_000, 30_000]);
    expect(reconnectDelay(3, () => 0.5)).toBe(4_000);
  });
});

describe('socketUrl', () => {
  it('turns a path or an https URL into a WebSocket URL carrying the ticket', () => {
    expect(socketUrl('/realtime', 'a b', 'https://toppubs.example/x')).toBe('wss://toppubs.example/realtime?ticket=a+b');
    expect(socketUrl('wss://id.execute-api.eu-west-1.amazonaws.com/prod', 't', 'https://toppubs.example/')).toBe(
      'wss://id.execute-api.eu-west-1.amazonaws.com/prod?ticket=t',
    );
  });
});
