import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { APP_TOKEN_HEADER, APPLICATION_ID_HEADER, SESSION_HEADER } from '../../../shared/constants';
import { verifyAppCredentials } from '../app-auth';
import { getDb } from '../db/service';
import { Unauthorized } from '../errors';
import { resolveSession } from '../sessions';

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; sessionId: string; isSuperUser: boolean }
  | { kind: 'app'; appId: string };

export type UserCaller = Extract<Caller, { kind: 'user' }>;

/** Turns a session token into the signed-in user, or null when it is unknown or expired. */
export type SessionResolver = (token: string, event: APIGatewayProxyEventV2) => Promise<UserCaller | null>;

// Sessions live in the table; tests may swap the resolver.
let sessionResolver: SessionResolver = (token) => resolveSession(getDb(), token);

export function setSessionResolver(resolver: SessionResolver): void {
  sessionResolver = resolver;
}

const ANONYMOUS: Caller = { kind: 'anonymous' };

/** The session token from the `ssoat` header (non-browser callers) or the session cookie. */
export function readSessionToken(event: APIGatewayProxyEventV2, headers: Record<string, string>): string | undefined {
  const fromHeader = headers[SESSION_HEADER];
  if (fromHeader) return fromHeader;
  for (const cookie of event.cookies ?? []) {
    const separator = cookie.indexOf('=');
    if (separator > 0 && cookie.slice(0, separator).trim() === SESSION_HEADER) {
      return decodeURIComponent(cookie.slice(separator + 1).trim());
    }
  }
  return undefined;
}

export async function resolveCaller(event: APIGatewayProxyEventV2, headers: Record<string, string>): Promise<Caller> {
  const appToken = headers[APP_TOKEN_HEADER];
  if (appToken !== undefined) {
    const appId = headers[APPLICATION_ID_HEADER];
    if (!appId || !(await verifyAppCredentials(appId, appToken))) {
      throw new Unauthorized('The app id and app token do not match a registered app.');
    }
    return { kind: 'app', appId };
  }
  const sessionToken = readSessionToken(event, headers);
  if (!sessionToken) return ANONYMOUS;
  return (await sessionResolver(sessionToken, event)) ?? ANONYMOUS;
}
