import * as client from 'openid-client';
import { type Config, getConfig } from '../../lib/config';

/** What Google login needs; all four settings or none (then the routes answer "not configured"). */
export interface GoogleSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function googleSettings(config: Config = getConfig()): GoogleSettings | undefined {
  const { googleIssuer, googleClientId, googleClientSecret, googleRedirectUri } = config;
  if (!googleIssuer || !googleClientId || !googleClientSecret || !googleRedirectUri) return undefined;
  return {
    issuer: new URL(googleIssuer),
    clientId: googleClientId,
    clientSecret: googleClientSecret,
    redirectUri: googleRedirectUri,
  };
}

let discovered: Promise<client.Configuration> | undefined;

/**
 * The provider's OpenID configuration (discovery document and keys), fetched once per
 * instance and fetched again after a failure. Plain http is allowed only for a loopback issuer
 * (the local mock provider).
 */
export function googleClient(settings: GoogleSettings): Promise<client.Configuration> {
  discovered ??= discover(settings).catch((error: unknown) => {
    discovered = undefined;
    throw error;
  });
  return discovered;
}

async function discover(settings: GoogleSettings): Promise<client.Configuration> {
  const insecure = settings.issuer.protocol === 'http:';
  if (insecure && !LOOPBACK_HOSTS.has(settings.issuer.hostname)) {
    throw new Error(`GOOGLE_ISSUER ${settings.issuer.href} must use https (plain http is only for a loopback mock)`);
  }
  const config = await client.discovery(
    settings.issuer,
    settings.clientId,
    { redirect_uris: [settings.redirectUri] },
    client.ClientSecretPost(settings.clientSecret),
    { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 5 },
  );
  config.timeout = 5;
  return config;
}
