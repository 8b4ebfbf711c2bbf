import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import {
  PASSWORD_REQUIRED_CODE,
  planAllowsPasswords,
  PRO_FEATURE_CODE,
  WRONG_PASSWORD_CODE,
} from '../../../shared/transfers/passwords';
import type { PlanLimits } from '../../../shared/transfers/plans';
import type { TransferSummary } from '../../../shared/schemas/transfers';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { Db } from '../../lib/db/service';
import { HttpError } from '../../lib/errors';
import { defineTokenPurpose, issueToken, readToken } from '../../lib/one-time-tokens';
import { claimLimits, clientNetwork, describeWait, hashedKeyPart, type LimitRule } from '../../lib/rate-limit';
import type { PackageCaller } from './transfer-access';

/**
 * Passwords on transfers. The sender's password is kept only as a scrypt hash (Node's own, no
 * dependency) with a random salt and the parameters it was made with, so the cost can be raised
 * later without breaking older transfers. A protected package opens to its sender as ever; to
 * anyone else it answers PASSWORD_REQUIRED (its existence, nothing more) until that browser
 * unlocks it.
 */

export class PasswordRequired extends HttpError {
  constructor(transferId: string) {
    super(403, PASSWORD_REQUIRED_CODE, 'This transfer is protected by a password. Enter it to see the files.', { transferId });
  }
}

export class WrongPassword extends HttpError {
  constructor() {
    super(403, WRONG_PASSWORD_CODE, 'That password is not right.');
  }
}

export class PasswordNeedsPro extends HttpError {
  constructor() {
    super(
      403,
      PRO_FEATURE_CODE,
      'Passwords on transfers are a Pro feature: upgrade to Pro to protect a transfer with a password.',
    );
  }
}

/** Refuses a password on a plan without them (Free): a clear 403 naming Pro. */
export function requirePasswordAllowed(limits: Pick<PlanLimits, 'planId'>): void {
  if (!planAllowsPasswords(limits.planId)) throw new PasswordNeedsPro();
}

/**
 * A protected transfer as a recipient's lists show it before it is opened: who sent it and when,
 * that it is protected, and nothing of what it holds (the lists are read without any unlock).
 */
export function withoutLockedContents(summary: TransferSummary): TransferSummary {
  if (!summary.passwordProtected) return summary;
  return { ...summary, title: '', message: '', fileCount: 0, totalBytes: 0 };
}

// ---------------------------------------------------------------------------------------------
// Hashing

/**
 * N = 2^15, r = 8: 32 MiB and some 50-100 ms per hash on a Lambda, the cost OWASP names for
 * scrypt within a function's memory. Stored beside each hash, so raising it later leaves older
 * hashes checkable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Node refuses scrypt above 32 MiB unless told: 128 * N * r bytes, with room to spare. */
const maxmemFor = (N: number, r: number) => 256 * N * r;
/** A stored hash's parameters are read back within these bounds: a damaged item cannot make a request hash for minutes. */
const MAX_N = 2 ** 17;

const scryptAsync = (password: string, salt: Buffer, keyBytes: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
export async function hashTransferPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, KEY_BYTES, { ...COST, maxmem: maxmemFor(COST.N, COST.r) });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether a password matches a stored hash, compared in constant time. */
export async function verifyTransferPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  if (scheme !== 'scrypt' || !salt || !hash || !(N >= 2 && N <= MAX_N) || !(R >= 1 && R <= 32) || !(P >= 1 && P <= 16)) {
    throw new Error('A transfer password hash is not one this code can check');
  }
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: maxmemFor(N, R),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// ---------------------------------------------------------------------------------------------
// Unlocking

/**
 * What a right password gives: a grant for that transfer in that browser (a cookie), for 12
 * hours. Stored like package grants (only the token's hash, under its own purpose, with an
 * expiry) rather than signed with a key: no signing key has to be provisioned and rotated in
 * every environment, the grant is checked with the same one read as a package grant, and
 * deleting the transfer's tokens (or waiting) ends it. It is not tied to the account: another
 * browser of the same person enters the password again.
 */
export const TRANSFER_UNLOCK = defineTokenPurpose<{ transferId: string }>('transfer-unlock', { lifetimeSeconds: 12 * 3600 });

const UNLOCK_COOKIE_PREFIX = 'tpu_';
export const unlockCookieName = (transferId: string) => `${UNLOCK_COOKIE_PREFIX}${transferId}`;

/** Sent only to the API (Path=/api/i/), never readable by the page, like package grants. */
function unlockCookie(transferId: string, token: string, maxAgeSeconds: number): string {
  return `${unlockCookieName(transferId)}=${token}; Path=/api/i/; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.max(0, maxAgeSeconds)}`;
}

/** Whether the request carries a live unlock for this transfer. */
async function carriesUnlock(db: Db, transferId: string, cookies: Readonly<Record<string, string>>, now: Date): Promise<boolean> {
  const token = cookies[unlockCookieName(transferId)];
  if (!token) return false;
  const stored = await readToken(db, TRANSFER_UNLOCK, token);
  return Boolean(stored && stored.payload.transferId === transferId && stored.expiresAt > Math.floor(now.getTime() / 1000));
}

/**
 * For every package route, right after its access check: a protected package answers
 * PASSWORD_REQUIRED to anyone but its sender until this browser has unlocked it. Unprotected
 * packages cost nothing more.
 */
export async function requirePackageUnlocked(
  db: Db,
  transfer: Pick<TransferItem, 'transferId' | 'ownerId' | 'passwordHash'>,
  caller: PackageCaller,
  cookies: Readonly<Record<string, string>>,
  now: Date,
): Promise<void> {
  if (!transfer.passwordHash) return;
  // Its sender, however they came (as checkPackageAccess tells them apart): never an emailed link's grant.
  if (caller.kind !== 'package-grant' && caller.userId === transfer.ownerId) return;
  if (await carriesUnlock(db, transfer.transferId, cookies, now)) return;
  throw new PasswordRequired(transfer.transferId);
}

/**
 * Guesses per transfer: from one client, 5 in 5 minutes; from everyone together, 30 an hour (a
 * guesser spread over many addresses still gets few tries, at the price of making the real
 * recipients wait too while it lasts). Each guess is counted by an atomic write before the
 * password is compared, so parallel guesses cannot slip past the count.
 */
export const UNLOCK_LIMITS = {
  perClient: { limit: 5, windowSeconds: 300 },
  perTransfer: { limit: 30, windowSeconds: 3600 },
} as const;

const tooManyGuesses = (waitSeconds: number) => `Too many wrong passwords. Try again in ${describeWait(waitSeconds)}.`;

function unlockRules(transferId: string, sourceIp: string): LimitRule[] {
  return [
    {
      kind: 'window',
      key: `transfer-unlock:client:${transferId}:${hashedKeyPart(clientNetwork(sourceIp))}`,
      ...UNLOCK_LIMITS.perClient,
      message: tooManyGuesses,
      chargeEvenIfRefused: true,
    },
    { kind: 'window', key: `transfer-unlock:transfer:${transferId}`, ...UNLOCK_LIMITS.perTransfer, message: tooManyGuesses },
  ];
}

/**
 * Tries a password on a protected package the caller may open: the guess is counted first (429
 * with the wait once over the limits), then compared. A right one is not counted against the
 * limits and answers the cookie of a fresh unlock grant.
 */
export async function unlockPackage(
  db: Db,
  options: { transfer: TransferItem; password: string; sourceIp: string; now: Date },
): Promise<{ cookie: string; unlockedUntil: string }> {
  const { transfer, now } = options;
  if (!transfer.passwordHash) throw new Error('unlockPackage is for protected transfers only');
  const claimed = await claimLimits(db, unlockRules(transfer.transferId, options.sourceIp), now);
  if (!(await verifyTransferPassword(options.password, transfer.passwordHash))) throw new WrongPassword();
  await claimed.release();
  const { token, expiresAt } = await issueToken(db, TRANSFER_UNLOCK, { payload: { transferId: transfer.transferId }, now });
  return {
    cookie: unlockCookie(transfer.transferId, token, expiresAt - Math.floor(now.getTime() / 1000)),
    unlockedUntil: new Date(expiresAt * 1000).toISOString(),
  };
}
