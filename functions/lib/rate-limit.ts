import type { Db } from './db/service';

/**
 * Rate limits kept in the table (for anything that sends email or costs
 * money). Each check is one atomic write, so concurrent Lambdas cannot both slip under a limit.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until a retry can succeed; 0 when allowed. */
  retryAfterSeconds: number;
}

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);
/** Counters outlive their window a little, so TTL never removes one that is still counting. */
const EXPIRY_GRACE_SECONDS = 60;

/** True when a DynamoDB condition failed, however ElectroDB wrapped it. */
export function isConditionalCheckFailed(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { name?: string; message?: string; cause?: unknown };
    if (candidate.name === 'ConditionalCheckFailedException') return true;
    if (typeof candidate.message === 'string' && candidate.message.includes('ConditionalCheckFailed')) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * A fixed-window counter: at most `limit` calls per key in each `windowSeconds` window (aligned
 * to the epoch). One UpdateItem with ADD creates or bumps the counter and returns the new count.
 */
export async function consumeRateLimit(
  db: Db,
  options: { key: string; limit: number; windowSeconds: number; now?: Date },
): Promise<RateLimitDecision> {
  const nowSeconds = toSeconds(options.now ?? new Date());
  const windowStart = nowSeconds - (nowSeconds % options.windowSeconds);
  const windowEnd = windowStart + options.windowSeconds;
  const { data } = await db.entities.rateLimit
    .upsert({ key: options.key, windowStart, expiresAt: windowEnd + EXPIRY_GRACE_SECONDS })
    .add({ count: 1 })
    .go({ response: 'all_new' });
  if (data.count <= options.limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds) };
}

/** Cooldown items share the rate-limit entity; this window value marks them apart from counters. */
const COOLDOWN_WINDOW = 0;

/**
 * One call per key per `seconds`, measured from the last allowed call (a fixed window would let
 * two calls through a moment apart across a window boundary). A conditional put claims the key
 * only when no unexpired claim exists; a refused call reads the claim to say how long to wait.
 */
export async function claimCooldown(db: Db, options: { key: string; seconds: number; now?: Date }): Promise<RateLimitDecision> {
  const nowSeconds = toSeconds(options.now ?? new Date());
  try {
    await db.entities.rateLimit
      .put({ key: options.key, windowStart: COOLDOWN_WINDOW, count: 1, expiresAt: nowSeconds + options.seconds })
      .where(({ expiresAt }, { notExists, lte }) => `${notExists(expiresAt)} OR ${lte(expiresAt, nowSeconds)}`)
      .go();
    return { allowed: true, retryAfterSeconds: 0 };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const { data } = await db.entities.rateLimit.get({ key: options.key, windowStart: COOLDOWN_WINDOW }).go();
    const until = data?.expiresAt ?? nowSeconds + options.seconds;
    return { allowed: false, retryAfterSeconds: Math.max(1, until - nowSeconds) };
  }
}

/** Gives a cooldown back, e.g. when the email it allowed could not be sent. */
export async function releaseCooldown(db: Db, key: string): Promise<void> {
  await db.entities.rateLimit.delete({ key, windowStart: COOLDOWN_WINDOW }).go();
}
