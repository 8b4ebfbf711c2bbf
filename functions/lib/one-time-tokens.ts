import { randomBytes } from 'node:crypto';
import { hashToken } from './app-auth';
import { lostRace, retryContendedWrite } from './contended-writes';
import { failedConditions, isConditionalCheckFailed } from './db/errors';
import type { Db } from './db/service';

/**
 * One-time tokens: a random value handed out once (in an email, a redirect, a cookie), stored
 * only as its SHA-256 under its purpose, with a payload saying what it stands for. A token is
 * spent at most once, by a conditional write (unused and unexpired), so two requests racing
 * with the same token cannot both win; the expiry is checked in code as well, since TTL deletes
 * expired items days late. Spending costs one strongly consistent read (which also explains a
 * refusal) and one conditional write.
 */

/** A kind of one-time token: its name (part of the key) and how long a token lives. */
export interface TokenPurpose<Payload> {
  readonly name: string;
  readonly lifetimeSeconds: number;
  /** Never set: carries the payload type, so issue and spend agree on it. */
  readonly payloadType?: Payload;
}

export function defineTokenPurpose<Payload extends object>(
  name: string,
  options: { lifetimeSeconds: number },
): TokenPurpose<Payload> {
  if (!/^[a-z0-9-]{1,40}$/.test(name)) throw new Error(`Token purpose '${name}': use a-z, 0-9 and '-'`);
  return { name, lifetimeSeconds: options.lifetimeSeconds };
}

export interface IssuedToken {
  /** The raw value: shown once, never stored. 256 bits in base64url (43 characters). */
  token: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export type SpendFailure =
  /** No such token for this purpose: mistyped, tampered with, or deleted by TTL long after expiring. */
  | 'unknown'
  | 'used'
  | 'expired'
  /** A write that had to happen together with the spend was refused; the token stays unspent. */
  | 'refused';

export type SpendOutcome<Payload> = { spent: true; payload: Payload } | { spent: false; failure: SpendFailure };

export interface StoredToken<Payload> {
  payload: Payload;
  /** Epoch seconds. */
  expiresAt: number;
  usedAt: string | undefined;
}

type WriteTransactionFn = Parameters<Db['transaction']['write']>[0];
/** The entities as a write transaction's callback receives them. */
export type TransactionEntities = Parameters<WriteTransactionFn>[0];
/** Writes (`.commit()` results) for a write transaction. */
export type TransactionWrites = ReturnType<WriteTransactionFn>;

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

/**
 * A payload is stored as JSON text, not as a DynamoDB map: it may carry what a page sent (a
 * login link's context), and JSON that DynamoDB cannot hold as a map (an empty key, a number
 * past its 38 digits) must not turn a request into a 500.
 */
const payloadText = (payload: unknown): string => JSON.stringify(payload);

/** The payload as issued; tokens issued before payloads were stored as text hold a map. */
function payloadFrom<Payload>(stored: unknown): Payload {
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as Payload;
}

/** Issues a fresh token of a purpose; the caller hands the raw value out once. */
export async function issueToken<Payload>(
  db: Db,
  purpose: TokenPurpose<Payload>,
  options: { payload: Payload; now?: Date },
): Promise<IssuedToken> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = toSeconds(now) + purpose.lifetimeSeconds;
  await db.entities.oneTimeToken
    .create({
      purpose: purpose.name,
      tokenHash: hashToken(token),
      payload: payloadText(options.payload),
      createdAt: now.toISOString(),
      expiresAt,
    })
    .go();
  return { token, expiresAt };
}

/** A token as stored, without spending it (strongly consistent); null when unknown. */
export async function readToken<Payload>(
  db: Db,
  purpose: TokenPurpose<Payload>,
  token: string,
): Promise<StoredToken<Payload> | null> {
  if (token.length > 200) return null;
  const { data } = await db.entities.oneTimeToken
    .get({ purpose: purpose.name, tokenHash: hashToken(token) })
    .go({ consistent: true });
  if (!data) return null;
  return { payload: payloadFrom<Payload>(data.payload), expiresAt: data.expiresAt, usedAt: data.usedAt };
}

/**
 * Spends a token once: its payload, or why not. The read only explains a refusal; the
 * conditional write is what guarantees a single spend.
 *
 * - `check` looks at the payload first and throws to refuse (the token stays unspent): a
 *   browser binding, the app asking, a session that must still be alive.
 * - `together` names writes that must succeed or fail with the spend, in one transaction
 *   (e.g. marking an address verified); a failed condition of one of them answers 'refused'.
 */
export async function spendToken<Payload>(
  db: Db,
  purpose: TokenPurpose<Payload>,
  token: string,
  options: {
    now?: Date;
    check?: (payload: Payload) => void | Promise<void>;
    together?: (entities: TransactionEntities, payload: Payload) => TransactionWrites;
  } = {},
): Promise<SpendOutcome<Payload>> {
  const now = options.now ?? new Date();
  const nowSeconds = toSeconds(now);
  const stored = await readToken(db, purpose, token);
  if (!stored) return { spent: false, failure: 'unknown' };
  await options.check?.(stored.payload);
  if (stored.usedAt) return { spent: false, failure: 'used' };
  if (stored.expiresAt <= nowSeconds) return { spent: false, failure: 'expired' };

  const key = { purpose: purpose.name, tokenHash: hashToken(token) };
  const together = options.together;
  if (!together) {
    try {
      await db.entities.oneTimeToken
        .patch(key)
        .set({ usedAt: now.toISOString() })
        .where(({ usedAt, expiresAt }, { notExists, gt }) => `${notExists(usedAt)} AND ${gt(expiresAt, nowSeconds)}`)
        .go({ response: 'none' });
      return { spent: true, payload: stored.payload };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      return { spent: false, failure: await whyNotSpendable(db, purpose, token, nowSeconds) };
    }
  }

  return retryContendedWrite<SpendOutcome<Payload>>({ what: 'using this link' }, async () => {
    const result = await db.transaction
      .write((entities) => [
        entities.oneTimeToken
          .patch(key)
          .set({ usedAt: now.toISOString() })
          .where(({ usedAt, expiresAt }, { notExists, gt }) => `${notExists(usedAt)} AND ${gt(expiresAt, nowSeconds)}`)
          .commit(),
        ...together(entities, stored.payload),
      ])
      .go();
    if (!result.canceled) return { spent: true, payload: stored.payload };
    const failed = failedConditions(result);
    if (failed.includes(0)) return { spent: false, failure: await whyNotSpendable(db, purpose, token, nowSeconds) };
    if (failed.length > 0) return { spent: false, failure: 'refused' };
    // Cancelled without a failed condition: it collided with another transaction in flight.
    return lostRace(result);
  });
}

/** After a lost race: a concurrent request spent the token first, or it expired meanwhile. */
async function whyNotSpendable<Payload>(
  db: Db,
  purpose: TokenPurpose<Payload>,
  token: string,
  nowSeconds: number,
): Promise<SpendFailure> {
  const current = await readToken(db, purpose, token);
  if (!current) return 'unknown';
  if (current.usedAt) return 'used';
  return current.expiresAt <= nowSeconds ? 'expired' : 'used';
}
