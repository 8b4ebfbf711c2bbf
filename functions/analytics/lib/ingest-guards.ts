import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/service';
import { PayloadTooLarge, RateLimited } from '../../lib/errors';
import { clientAddress } from '../../lib/http/client-address';
import { clientNetwork, describeWait, hashedKeyPart } from '../../lib/rate-limit';

/**
 * The largest request body the ingestion routes take. Over it they answer 413, on which
 * mixpanel-browser halves its batch and tries again (a single event over it is dropped).
 */
export const MAX_INGEST_BODY_BYTES = 256 * 1024;

/**
 * Requests a minute from one client network: far above what a person's tabs send (a batch every
 * 5 s per tab is 12 a minute), low enough that a script cannot flood the stream.
 */
export const INGEST_REQUESTS_PER_MINUTE = 240;

export function checkBodySize(event: APIGatewayProxyEventV2): void {
  const body = event.body ?? '';
  const bytes = event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
  if (bytes > MAX_INGEST_BODY_BYTES) throw new PayloadTooLarge(MAX_INGEST_BODY_BYTES);
}

/**
 * Requests one function instance counts on its own between two writes of a network's counter:
 * the table sees one write per 10 requests of a busy sender instead of one each (DynamoDB is
 * then not what limits ingestion), and a person's single batch claims 10 of their 240. Each
 * instance claims its own leases, so a network may get up to one lease more per instance than
 * the limit: slack that a flood cannot use to go far past it.
 */
export const REQUESTS_PER_LEASE = 10;
/** Networks remembered by one instance; the oldest are forgotten past it. */
const MAX_REMEMBERED_NETWORKS = 10_000;

interface Lease {
  windowStart: number;
  /** Requests this instance may still let through in the window without asking the table. */
  remaining: number;
  /** Set once the table refused: every request of the window is refused without asking again. */
  refusedUntil?: number;
  /** The claim in flight: concurrent requests of the network wait for it rather than claim again. */
  claiming?: Promise<void>;
}

const leases = new Map<string, Lease>();
const WINDOW_SECONDS = 60;

function refuse(retryAfterSeconds: number): never {
  throw new RateLimited(
    `Too many analytics requests from your network: try again in ${describeWait(retryAfterSeconds)}.`,
    retryAfterSeconds,
  );
}

/** One lease more for the network's window, from the same fixed-window counter item as every rate limit. */
async function claimLease(network: string, lease: Lease): Promise<void> {
  const windowEnd = lease.windowStart + WINDOW_SECONDS;
  const { data } = await getDb()
    .entities.rateLimit.upsert({
      key: `analytics:net:${hashedKeyPart(network)}`,
      windowStart: lease.windowStart,
      expiresAt: windowEnd + WINDOW_SECONDS,
    })
    .add({ count: REQUESTS_PER_LEASE })
    .go({ response: 'all_new' });
  if (data.count > INGEST_REQUESTS_PER_MINUTE) lease.refusedUntil = windowEnd;
  else lease.remaining += REQUESTS_PER_LEASE;
}

/**
 * One counted request for the caller's network this minute (a fixed window, aligned to the
 * minute); 429 with Retry-After (the seconds left in the window) over the limit.
 */
export async function limitIngestRate(event: APIGatewayProxyEventV2, now: Date = new Date()): Promise<void> {
  const network = clientNetwork(clientAddress(event, getConfig().edgeOriginToken));
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  let lease = leases.get(network);
  if (!lease || lease.windowStart !== windowStart) {
    if (leases.size >= MAX_REMEMBERED_NETWORKS) leases.delete(leases.keys().next().value as string);
    lease = { windowStart, remaining: 0 };
    leases.set(network, lease);
  }
  for (;;) {
    if (lease.refusedUntil !== undefined) refuse(Math.max(1, lease.refusedUntil - nowSeconds));
    if (lease.remaining > 0) {
      lease.remaining -= 1;
      return;
    }
    const current = lease;
    current.claiming ??= claimLease(network, current).finally(() => {
      current.claiming = undefined;
    });
    await current.claiming;
  }
}
