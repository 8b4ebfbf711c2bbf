import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { isConditionalCheckFailed } from './db/errors';
import type { Db } from './db/service';
import { RateLimited } from './errors';

/**
 * Rate limits kept in the table, for anything that sends email or costs money. Each check is
 * one atomic write, so concurrent Lambdas cannot both slip under a limit.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until a retry can succeed; 0 when allowed. */
  retryAfterSeconds: number;
}

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);
/** Counters outlive their window a little, so TTL never removes one that is still counting. */
const EXPIRY_GRACE_SECONDS = 60;

/** A key part that names a person (an address, an IP) without storing it in clear. */
export const hashedKeyPart = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The network a client address belongs to, for per-client limits: an IPv4 address as it is, an
 * IPv6 address as its /64 (one subscriber usually holds a whole /64, so counting single IPv6
 * addresses would let one client rotate through billions of them).
 */
export function clientNetwork(sourceIp: string): string {
  const address = sourceIp.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * A fixed-window counter: at most `limit` calls per key in each `windowSeconds` window (aligned
 * to the epoch, so a day is a UTC day). One UpdateItem with ADD creates or bumps the counter and
 * returns the new count.
 */
export async function consumeRateLimit(
  db: Db,
  options: { key: string; limit: number; windowSeconds: number; now?: Date },
): Promise<RateLimitDecision & { windowStart: number; count: number }> {
  const nowSeconds = toSeconds(options.now ?? new Date());
  const windowStart = nowSeconds - (nowSeconds % options.windowSeconds);
  const windowEnd = windowStart + options.windowSeconds;
  const { data } = await db.entities.rateLimit
    .upsert({ key: options.key, windowStart, expiresAt: windowEnd + EXPIRY_GRACE_SECONDS })
    .add({ count: 1 })
    .go({ response: 'all_new' });
  const { count } = data;
  if (count <= options.limit) return { allowed: true, retryAfterSeconds: 0, windowStart, count };
  return { allowed: false, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds), windowStart, count };
}

/** Takes one call back from a window's counter (its call did not happen after all). */
async function refundRateLimit(db: Db, key: string, windowStart: number): Promise<void> {
  try {
    await db.entities.rateLimit.patch({ key, windowStart }).add({ count: -1 }).go({ response: 'none' });
  } catch (error) {
    // The window's item is gone (TTL): nothing left to give back.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Cooldown items share the rate-limit entity; this window value marks them apart from counters. */
const COOLDOWN_WINDOW = 0;

/**
 * One call per key per `seconds`, measured from the last allowed call (a fixed window would let
 * two calls through a moment apart across a window boundary). A conditional put claims the key
 * only when no unexpired claim exists; a refused call reads the claim to say how long to wait.
 */
export async function claimCooldown(db: Db, options: { key: string; seconds: number; now?: Date }): Promise<RateLimitDecision> {
  const { allowed, retryAfterSeconds } = await claimCooldownUntil(db, options);
  return { allowed, retryAfterSeconds };
}

/** claimCooldown, also saying when the claim ends (the claim's identity, for releasing it). */
async function claimCooldownUntil(
  db: Db,
  options: { key: string; seconds: number; now?: Date },
): Promise<RateLimitDecision & { until: number }> {
  const nowSeconds = toSeconds(options.now ?? new Date());
  const until = nowSeconds + options.seconds;
  try {
    await db.entities.rateLimit
      .put({ key: options.key, windowStart: COOLDOWN_WINDOW, count: 1, expiresAt: until })
      .where(({ expiresAt }, { notExists, lte }) => `${notExists(expiresAt)} OR ${lte(expiresAt, nowSeconds)}`)
      .go();
    return { allowed: true, retryAfterSeconds: 0, until };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const { data } = await db.entities.rateLimit.get({ key: options.key, windowStart: COOLDOWN_WINDOW }).go({ consistent: true });
    const held = data?.expiresAt ?? until;
    return { allowed: false, retryAfterSeconds: Math.max(1, held - nowSeconds), until: held };
  }
}

/**
 * Gives a cooldown back, e.g. when the email it allowed could not be sent. With `until`, only
 * the claim that ended then is removed, never a newer one made after it ran out.
 */
export async function releaseCooldown(db: Db, key: string, until?: number): Promise<void> {
  if (until === undefined) {
    await db.entities.rateLimit.delete({ key, windowStart: COOLDOWN_WINDOW }).go();
    return;
  }
  try {
    await db.entities.rateLimit
      .delete({ key, windowStart: COOLDOWN_WINDOW })
      .where(({ expiresAt }, { eq }) => eq(expiresAt, until))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** "45 seconds", "8 minutes", "3 hours": how long to wait, rounded up, for a person to read. */
export function describeWait(seconds: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/**
 * One limit of a policy. `message` says, for a person, why the call was refused and when to
 * try again (Retry-After carries the exact seconds).
 */
export type LimitRule =
  | { kind: 'cooldown'; key: string; seconds: number; message: (waitSeconds: number) => string }
  | {
      kind: 'window';
      key: string;
      limit: number;
      windowSeconds: number;
      message: (waitSeconds: number) => string;
      /**
       * Keep this count when a later rule refuses the call. Set on limits of the caller (per
       * client IP), so hammering a refused address still costs the caller; limits of the target
       * (an address, the whole service) are given back, so refused calls do not eat into them.
       */
      chargeEvenIfRefused?: boolean;
      /**
       * Told of every call that finds the window's count at `fromCount` or more (this call
       * included), allowed or refused: a budget nearly used up is reported before it refuses.
       */
      nearLimit?: { fromCount: number; report: (count: number, refused: boolean) => void };
    };

export interface ClaimedLimits {
  /** Gives back everything the claim consumed: the call did not go through after all. */
  release(): Promise<void>;
}

/**
 * Claims every rule in order, each with one atomic write, and stops at the first refusal:
 * RateLimited with that rule's message and exact Retry-After. Rules after the refusing one are
 * never consumed, and what earlier rules consumed is given back unless it is charged even when
 * refused. Put the caller's limits first and the scarcest shared budget (the service-wide cap)
 * last, so a refused call never spends it.
 */
export async function claimLimits(db: Db, rules: readonly LimitRule[], now: Date = new Date()): Promise<ClaimedLimits> {
  const claimed: { rule: LimitRule; undo: () => Promise<void> }[] = [];
  const undo = async (which: (rule: LimitRule) => boolean) => {
    await Promise.all(claimed.filter(({ rule }) => which(rule)).map(({ undo: give }) => give()));
  };
  for (const rule of rules) {
    if (rule.kind === 'cooldown') {
      const decision = await claimCooldownUntil(db, { key: rule.key, seconds: rule.seconds, now });
      if (!decision.allowed) {
        await undo((earlier) => !(earlier.kind === 'window' && earlier.chargeEvenIfRefused));
        throw new RateLimited(rule.message(decision.retryAfterSeconds), decision.retryAfterSeconds);
      }
      claimed.push({ rule, undo: () => releaseCooldown(db, rule.key, decision.until) });
    } else {
      const decision = await consumeRateLimit(db, { key: rule.key, limit: rule.limit, windowSeconds: rule.windowSeconds, now });
      const giveBack = () => refundRateLimit(db, rule.key, decision.windowStart);
      if (rule.nearLimit && decision.count >= rule.nearLimit.fromCount) rule.nearLimit.report(decision.count, !decision.allowed);
      if (!decision.allowed) {
        // Over the limit, this call's count is given back too: a refused call leaves no trace
        // on a shared budget, and the caller's own count has already passed the limit anyway.
        await Promise.all([
          rule.chargeEvenIfRefused ? Promise.resolve() : giveBack(),
          undo((earlier) => !(earlier.kind === 'window' && earlier.chargeEvenIfRefused)),
        ]);
        throw new RateLimited(rule.message(decision.retryAfterSeconds), decision.retryAfterSeconds);
      }
      claimed.push({ rule, undo: giveBack });
    }
  }
  return { release: () => undo(() => true) };
}
