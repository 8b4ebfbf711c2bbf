import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getDb } from './db/service';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Registers (or re-keys) a server-side app and returns its new private token, shown once. */
export async function registerAppClient(appId: string, name: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await getDb()
    .entities.appClient.put({ appId, name, tokenHash: hashToken(token), createdAt: new Date().toISOString() })
    .go();
  return token;
}

export async function verifyAppCredentials(appId: string, token: string): Promise<boolean> {
  if (appId.length > 100 || token.length > 200) return false;
  const { data } = await getDb().entities.appClient.get({ appId }).go();
  if (!data) return false;
  const expected = Buffer.from(data.tokenHash, 'hex');
  const actual = Buffer.from(hashToken(token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
