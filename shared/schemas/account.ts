import * as z from 'zod';
import { RESERVED_PATH_SEGMENTS } from '../constants';

/** Words no account may take as its username, besides the reserved path segments. */
export const RESERVED_USERNAMES = [
  ...RESERVED_PATH_SEGMENTS,
  'admin', 'administrator', 'api', 'about', 'help', 'support', 'login', 'logout', 'signup', 'search',
  'topics', 'topic', 'growing', 'active', 'notifications', 'transfer', 'root', 'system', 'toppubs', 'null', 'undefined',
] as const;

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'Usernames have at least 3 characters')
  .max(30, 'Usernames have at most 30 characters')
  .regex(/^[A-Za-z0-9_]+$/, 'Use letters, digits and underscores only');

export const emailSchema = z.email({ message: 'Enter a valid email address' }).max(254).transform((email) => email.trim());

/** The current-user shape of SPEC.md section 3, plus the id the web app needs. */
export const currentUserSchema = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  pennameAccountUrl: z.string(),
  numUnseenNotifications: z.number(),
  ssoAppNumUnseenNotifications: z.number(),
  isSuperUser: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const sendLoginEmailQuerySchema = z.object({ email: emailSchema }).strict();
export const sendLoginEmailBodySchema = z
  .object({ contextData: z.record(z.string(), z.unknown()).optional() })
  .strict()
  .optional();

export const confirmLoginEmailBodySchema = z
  .object({ token: z.string().min(20, 'This login link is incomplete').max(200, 'This login link is not valid') })
  .strict();

export const usernameIsFreeQuerySchema = z.object({ username: z.string().max(100) }).strict();
export const usernameIsFreeResponseSchema = z.object({
  username: z.string(),
  isFree: z.boolean(),
  /** Why it is not free: taken, reserved, or not a valid username. */
  reason: z.string().nullable(),
});
