import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { failedConditions } from './db/errors';
import { type Db, getDb } from './db/service';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 'https://App.example.com/path' -> 'https://app.example.com'; null when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Registers (or re-keys) a server-side app and returns its new private token, shown once. The
 * app's single sign-on origins are registered with it: each origin belongs to at most one app,
 * so registering one that another app holds fails, and origins left out of a new registration
 * are freed. All of it is one transaction.
 */
export async function registerAppClient(appId: string, name: string, origins: readonly string[] = []): Promise<string> {
  const wanted = [
    ...new Set(
      origins.map((value) => {
        const origin = normaliseOrigin(value);
        if (!origin) throw new Error(`'${value}' is not an http(s) origin like https://app.example.com`);
        return origin;
      }),
    ),
  ];
  const db = getDb();
  const { data: previous } = await db.entities.appClient.get({ appId }).go({ consistent: true });
  const dropped = (previous?.origins ?? []).filter((origin) => !wanted.includes(origin));
  const token = randomBytes(32).toString('base64url');
  const createdAt = new Date().toISOString();
  const result = await db.transaction
    .write(({ appClient, appOrigin }) => [
      appClient.put({ appId, name, tokenHash: hashToken(token), origins: wanted, createdAt }).commit(),
      ...wanted.map((origin) =>
        appOrigin
          .put({ origin, appId, createdAt })
          .where((attr, op) => `${op.notExists(attr.appId)} OR ${op.eq(attr.appId, appId)}`)
          .commit(),
      ),
      ...dropped.map((origin) =>
        appOrigin
          .delete({ origin })
          .where((attr, op) => op.eq(attr.appId, appId))
          .commit(),
      ),
    ])
    .go();
  if (result.canceled) {
    const taken = failedConditions(result).flatMap((index) => wanted[index - 1] ?? []);
    if (taken.length > 0) throw new Error(`${taken.join(', ')} is already registered to another app`);
    throw new Error(`Could not register ${appId}: the registration changed meanwhile; try again`);
  }
  return token;
}

/** The app registered for an origin, or null (one GetItem). */
export async function appOfOrigin(db: Db, options: { origin: string }): Promise<string | null> {
  const { data } = await db.entities.appOrigin.get({ origin: options.origin }).go({ consistent: true });
  return data?.appId ?? null;
}

export async function verifyAppCredentials(appId: string, token: string): Promise<boolean> {
  if (appId.length > 100 || token.length > 200) return false;
  const { data } = await getDb().entities.appClient.get({ appId }).go();
  if (!data) return false;
  const expected = Buffer.from(data.tokenHash, 'hex');
  const actual = Buffer.from(hashToken(token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
