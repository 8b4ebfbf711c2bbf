import { REALTIME_PING_SECONDS } from '@shared/realtime';
import type { routes } from '@shared/routes';
import type { UnseenCounts } from '@shared/schemas/notifications';
import type { RealtimeServerMessage } from '@shared/schemas/realtime';
import { ApiError, endpoint } from './api-client';

const realtimeClientEndpoint = endpoint<typeof routes.realtimeClient>('GET', '/api/i/user/auth/login/pusher/client');

/** Reconnects wait 1 s, 2 s, 4 s … up to 30 s, each a random part of that (full jitter), so tabs do not reconnect in step. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt));
}

/** The endpoint may be a path (the local runtime) or a wss:// URL (AWS): either way, a WebSocket URL. */
export function socketUrl(endpointUrl: string, ticket: string, pageUrl: string): string {
  const url = new URL(endpointUrl, pageUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  url.searchParams.set('ticket', ticket);
  return url.toString();
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The one message the page acts on. Checked by hand, not with the shared zod schema: zod would
 * come into the app shell's bundle, and its first parse probes `new Function`, which the
 * page's CSP refuses (and reports).
 */
function isUnseenCounts(data: unknown): data is Extract<RealtimeServerMessage, { type: 'unseen-counts' }> {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'unseen-counts') return false;
  const counts = (data as { counts?: Partial<Record<keyof UnseenCounts, unknown>> }).counts;
  return (
    typeof counts === 'object' &&
    counts !== null &&
    isCount(counts.numUnseenNotifications) &&
    isCount(counts.ssoAppNumUnseenNotifications) &&
    isCount(counts.total)
  );
}

export interface LiveUpdatesOptions {
  onCounts: (counts: UnseenCounts) => void;
  /** Called when a connection opens again after one was lost: what happened meanwhile is read again. */
  onReconnected?: () => void;
  fetchTicket?: () => Promise<{ endpoint: string; ticket: string }>;
  createSocket?: (url: string) => WebSocket;
  random?: () => number;
  pageUrl?: () => string;
}

/**
 * Keeps one live connection open while started: a fresh ticket per attempt, pings well inside
 * the server's idle timeout, and reconnects with backoff after anything closes it (a deploy,
 * a lost network, the server's two-hour limit). Coming back online or to the tab reconnects
 * at once. A 401 for the ticket means nobody is signed in any more: it stops.
 */
export function startLiveUpdates(options: LiveUpdatesOptions): () => void {
  const fetchTicket = options.fetchTicket ?? (() => realtimeClientEndpoint());
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const pageUrl = options.pageUrl ?? (() => window.location.href);
  let stopped = false;
  let attempt = 0;
  let connectedBefore = false;
  let socket: WebSocket | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const scheduleRetry = () => {
    if (stopped || retryTimer !== undefined) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        void connect();
      },
      reconnectDelay(attempt++, options.random),
    );
  };

  const connect = async () => {
    if (stopped || socket) return;
    let ticket: { endpoint: string; ticket: string };
    try {
      ticket = await fetchTicket();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      scheduleRetry();
      return;
    }
    if (stopped || socket) return;
    const opened = createSocket(socketUrl(ticket.endpoint, ticket.ticket, pageUrl()));
    socket = opened;
    opened.addEventListener('open', () => {
      attempt = 0;
      pingTimer = setInterval(() => opened.send(JSON.stringify({ action: 'ping' })), REALTIME_PING_SECONDS * 1000);
      if (connectedBefore) options.onReconnected?.();
      connectedBefore = true;
    });
    opened.addEventListener('message', (event: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (isUnseenCounts(data)) options.onCounts(data.counts);
    });
    opened.addEventListener('close', () => {
      clearInterval(pingTimer);
      if (socket === opened) socket = undefined;
      scheduleRetry();
    });
  };

  const reconnectNow = () => {
    if (stopped || socket) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    attempt = 0;
    void connect();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') reconnectNow();
  };
  window.addEventListener('online', reconnectNow);
  document.addEventListener('visibilitychange', onVisible);
  void connect();

  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    window.removeEventListener('online', reconnectNow);
    document.removeEventListener('visibilitychange', onVisible);
    socket?.close(1000);
    socket = undefined;
  };
}
