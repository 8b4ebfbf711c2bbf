import type * as z from '@shared/zod';
import type {
  accountOverviewSchema,
  openReportSchema,
  sessionSummarySchema,
  usernameIsFreeResponseSchema,
} from '@shared/schemas/account';

export type { EmailPreferences, PublicUser, UserSettings } from '@shared/schemas/account';
export type AccountOverview = z.infer<typeof accountOverviewSchema>;
export type FullUser = AccountOverview['user'];
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export type UsernameIsFree = z.infer<typeof usernameIsFreeResponseSchema>;
export type OpenReport = z.infer<typeof openReportSchema>;

/** Query keys of the account feature: everything under ['account'] belongs to one signed-in user or to profiles. */
export const accountKeys = {
  all: ['account'] as const,
  overview: (userId: string) => ['account', 'overview', userId] as const,
  overviews: ['account', 'overview'] as const,
  sessions: (userId: string) => ['account', 'sessions', userId] as const,
  usernameIsFree: (username: string) => ['account', 'username-is-free', username] as const,
  profiles: ['account', 'profile'] as const,
  profile: (username: string) => ['account', 'profile', username.toLowerCase()] as const,
  following: (userId: string) => ['account', 'following', userId.toLowerCase()] as const,
  openReports: ['account', 'moderation', 'reports'] as const,
};
