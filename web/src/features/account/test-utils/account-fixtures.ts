import { jane } from '../../../test/render-shell';
import type { AccountOverview, FullUser, PublicUser, SessionSummary } from '../api/account-keys';
import { type RecordedRequest, stubApi } from './stub-api';

export const ACCOUNT_PATH = '/api/i/user/me/v/account';
export const SESSIONS_PATH = '/api/i/user/me/v/sessions';
export const USERNAME_IS_FREE_PATH = '/api/i/user/userme/v/check/usernameIsFree';
export const UPDATE_PROFILE_PATH = '/api/i/user/me/mod/profile';
export const EMAIL_PREFERENCES_PATH = '/api/i/user/me/mod/email/pref';
export const REPORT_PATH = '/api/i/user/me/mod/report/object';
export const DELETE_ACCOUNT_PATH = '/api/i/user/me/mod';
export const settingsPath = (userId: string) => `/api/i/user/${userId}/mod/settings`;
export const sessionPath = (sessionId: string) => `/api/i/user/me/mod/session/${sessionId}`;
export const blockPath = (userId: string) => `/api/i/user/me/mod/interact-user/${userId}/block`;
export const unblockPath = (userId: string) => `/api/i/user/me/mod/interact-user/${userId}/unblock`;
export const publicUserPath = (idOrUsername: string) => `/api/i/user/${idOrUsername}/v/idOrUsername`;

export function publicUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const username = overrides.username ?? 'sam';
  return {
    id: `user-${username}`,
    userId: `user-${username}`,
    username,
    name: 'Sam Lee',
    createdAt: '2024-03-15T12:00:00.000Z',
    imageUrl: null,
    hasOwnImageUrl: false,
    hasEmail: true,
    hasValidEmail: true,
    isSuperUser: false,
    websiteUrl: null,
    lastLoginAt: '2025-01-10T12:00:00.000Z',
    ...overrides,
  };
}

export const janeFull: FullUser = {
  ...publicUser({ username: jane.username, userId: jane.userId, id: jane.userId, name: jane.name }),
  websiteUrl: 'https://jane.example',
  email: 'jane@example.com',
  emailVerified: true,
};

export function accountOverview(overrides: Partial<AccountOverview> = {}): AccountOverview {
  return {
    user: janeFull,
    settings: { theme: 'system', defaultBoard: 'followers', activeOnlyByDefault: false },
    emailPreferences: { productUpdates: true, weeklyDigest: true, notificationEmails: true },
    blockedUsers: [],
    connectedAccounts: [],
    ...overrides,
  };
}

export const sessions: SessionSummary[] = [
  {
    sessionId: 'sess-here',
    createdAt: '2025-01-01T10:00:00.000Z',
    lastUsedAt: '2025-01-10T10:00:00.000Z',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Chrome/131.0 Safari/605.1.15',
    isCurrent: true,
  },
  {
    sessionId: 'sess-phone',
    createdAt: '2024-12-01T10:00:00.000Z',
    lastUsedAt: '2025-01-05T10:00:00.000Z',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1',
    isCurrent: false,
  },
];

type Answer = { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;
export type Answers = Record<string, Answer | ((request: RecordedRequest) => Answer)>;

/** Stubs fetch with answers keyed by 'METHOD /path'; the account and sessions answer by default. */
export function stubAccountApi(answers: Answers = {}) {
  const all: Answers = {
    [`GET ${ACCOUNT_PATH}`]: { body: accountOverview() },
    [`GET ${SESSIONS_PATH}`]: { body: { sessions } },
    ...answers,
  };
  return stubApi((request) => {
    const answer = all[`${request.method} ${request.url.pathname}`];
    return typeof answer === 'function' ? answer(request) : answer;
  });
}
