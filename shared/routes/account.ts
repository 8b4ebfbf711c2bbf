import * as z from '../zod';
import {
  openReportsQuerySchema,
  openReportsSchema,
  resolveReportsParamsSchema,
  accountOverviewSchema,
  emailPreferencesSchema,
  emailSchema,
  fullUserSchema,
  idParamsSchema,
  profileBodySchema,
  publicUserSchema,
  reportBodySchema,
  sessionSummarySchema,
  userIdParamsSchema,
  userIdSchema,
  userSettingsSchema,
  confirmLoginEmailBodySchema,
  currentUserSchema,
  sendLoginEmailBodySchema,
  sendLoginEmailQuerySchema,
  usernameIsFreeQuerySchema,
  usernameIsFreeResponseSchema,
} from '../schemas/account';
import { defineRoute } from './define-route';

export const getMe = defineRoute({
  method: 'GET',
  path: '/api/i/user/me/v',
  access: 'user',
  handler: 'account/get-me',
  summary: 'The signed-in user: username, image, account link and unseen notification counts.',
  response: currentUserSchema,
  // Every page load of every app asks for the current user, so this is where a session in use
  // records its use and gets its expiry pushed out (one conditional write at most every five
  // minutes per session); other read routes never write.
  capabilities: { table: 'read-write' },
});

export const checkUsernameIsFree = defineRoute({
  method: 'GET',
  path: '/api/i/user/userme/v/check/usernameIsFree',
  access: 'public',
  handler: 'account/check-username-is-free',
  summary: 'Whether a username can be taken: not taken, not reserved, well formed.',
  query: usernameIsFreeQuerySchema,
  response: usernameIsFreeResponseSchema,
});

export const sendLoginEmail = defineRoute({
  method: 'POST',
  path: '/api/i/user/auth/login/email',
  access: 'public',
  handler: 'account/send-login-email',
  summary: 'Emails a one-time login link; the same answer whether or not an account exists.',
  query: sendLoginEmailQuerySchema,
  body: sendLoginEmailBodySchema,
  response: z.strictObject({ sent: z.literal(true) }),
  capabilities: { email: true },
});

export const confirmLoginEmail = defineRoute({
  method: 'POST',
  path: '/api/i/user/auth/login/email/confirm',
  access: 'public',
  handler: 'account/confirm-login-email',
  summary: 'Spends a login link (from the confirm page) and starts a session.',
  body: confirmLoginEmailBodySchema,
  response: z.strictObject({
    user: currentUserSchema,
    isNewAccount: z.boolean(),
    /** The page the login started from (its link carried it), or / (see loginReturnPath). */
    returnTo: z.string(),
  }),
});

export const logout = defineRoute({
  method: 'GET',
  path: '/api/i/user/auth/logout',
  access: 'public',
  handler: 'account/logout',
  summary: 'Ends the current session on the server and clears the cookie.',
  response: z.strictObject({ loggedOut: z.literal(true) }),
  capabilities: { table: 'read-write' },
  stateChanging: true,
});

export const getUsername = defineRoute({
  method: 'GET',
  path: '/api/i/user/user/{userId}/v/username',
  access: 'public',
  handler: 'account/get-username',
  summary: "A user's username by id.",
  params: userIdParamsSchema,
  response: z.strictObject({ userId: z.string(), username: z.string() }),
});

export const findIdByUsername = defineRoute({
  method: 'GET',
  path: '/api/i/user/user/find/id/by/username/{username}',
  access: 'public',
  handler: 'account/find-id-by-username',
  summary: 'A user id by username (case-insensitive).',
  params: z.strictObject({ username: z.string().check(z.minLength(1), z.maxLength(100)) }),
  response: z.strictObject({ userId: z.string(), username: z.string() }),
});

export const findUserByEmail = defineRoute({
  method: 'GET',
  path: '/api/i/user/user/find/full/by/email',
  access: ['app', 'superuser'],
  handler: 'account/find-user-by-email',
  summary: 'A full user by email: apps and superusers only, so nobody can enumerate emails.',
  query: z.strictObject({ email: emailSchema }),
  response: z.strictObject({ user: fullUserSchema }),
});

export const getUser = defineRoute({
  method: 'GET',
  path: '/api/i/user/{id}/v',
  access: 'public',
  handler: 'account/get-user',
  summary: 'A public user by id.',
  params: idParamsSchema,
  response: publicUserSchema,
});

export const getUserByIdOrUsername = defineRoute({
  method: 'GET',
  path: '/api/i/user/{id}/v/idOrUsername',
  access: 'public',
  handler: 'account/get-user-by-id-or-username',
  summary: 'A public user by id or by username (profile pages use the username).',
  params: idParamsSchema,
  response: publicUserSchema,
});

export const listUsers = defineRoute({
  method: 'POST',
  path: '/api/i/user/users/v',
  access: 'public',
  handler: 'account/list-users',
  summary: 'Public users by ids (at most 100); unknown ids are left out.',
  body: z.strictObject({ ids: z.array(userIdSchema).check(z.maxLength(100, 'Ask for at most 100 users at once')) }),
  response: z.strictObject({ users: z.array(publicUserSchema) }),
  // A lookup that needs a body for its id list: it reads only.
  capabilities: { table: 'read' },
  stateChanging: false,
});

export const getAccount = defineRoute({
  method: 'GET',
  path: '/api/i/user/me/v/account',
  access: 'user',
  handler: 'account/get-account',
  summary: "The signed-in user's own account: full user, settings, email preferences, blocked users.",
  response: accountOverviewSchema,
});

export const getSettings = defineRoute({
  method: 'GET',
  path: '/api/i/user/me/v/settings',
  access: 'user',
  handler: 'account/get-settings',
  summary: "The signed-in user's settings.",
  response: z.strictObject({ settings: userSettingsSchema }),
});

export const upsertSettings = defineRoute({
  method: 'POST',
  path: '/api/i/user/{id}/mod/settings',
  access: 'user',
  handler: 'account/upsert-settings',
  summary: "Merges settings into a user's settings: that user or a superuser only.",
  params: idParamsSchema,
  body: userSettingsSchema,
  response: z.strictObject({ settings: userSettingsSchema }),
});

export const updateProfile = defineRoute({
  method: 'PUT',
  path: '/api/i/user/me/mod/profile',
  access: 'user',
  handler: 'account/update-profile',
  summary: 'Changes name, username (if free), website and image.',
  body: profileBodySchema,
  response: fullUserSchema,
});

export const updateEmailPreferences = defineRoute({
  method: 'PUT',
  path: '/api/i/user/me/mod/email/pref',
  access: 'user',
  handler: 'account/update-email-preferences',
  summary: 'Which emails the user wants.',
  body: emailPreferencesSchema,
  response: z.strictObject({ emailPreferences: emailPreferencesSchema }),
});

export const blockUser = defineRoute({
  method: 'POST',
  path: '/api/i/user/me/mod/interact-user/{userId}/block',
  access: 'user',
  handler: 'account/block-user',
  summary: 'Blocks a user (idempotent).',
  params: userIdParamsSchema,
  response: z.strictObject({ userId: z.string(), blocked: z.literal(true) }),
});

export const unblockUser = defineRoute({
  method: 'POST',
  path: '/api/i/user/me/mod/interact-user/{userId}/unblock',
  access: 'user',
  handler: 'account/unblock-user',
  summary: 'Unblocks a user (idempotent).',
  params: userIdParamsSchema,
  response: z.strictObject({ userId: z.string(), blocked: z.literal(false) }),
});

export const reportObject = defineRoute({
  method: 'POST',
  path: '/api/i/user/me/mod/report/object',
  access: 'user',
  handler: 'account/report-object',
  summary: 'Reports an object for review; one report per reporter and object (a repeat updates it).',
  body: reportBodySchema,
  response: z.strictObject({ reported: z.literal(true), isNew: z.boolean() }),
});

export const listSessions = defineRoute({
  method: 'GET',
  path: '/api/i/user/me/v/sessions',
  access: 'user',
  handler: 'account/list-sessions',
  summary: "The signed-in user's active sessions, the current one flagged.",
  response: z.strictObject({ sessions: z.array(sessionSummarySchema) }),
});

export const endSession = defineRoute({
  method: 'DELETE',
  path: '/api/i/user/me/mod/session/{sessionId}',
  access: 'user',
  handler: 'account/end-session',
  summary: "Ends one of the signed-in user's sessions.",
  params: z.strictObject({ sessionId: z.string().check(z.minLength(1), z.maxLength(100)) }),
  response: z.strictObject({ ended: z.literal(true) }),
});

export const deleteAccount = defineRoute({
  method: 'DELETE',
  path: '/api/i/user/me/mod',
  access: 'user',
  handler: 'account/delete-account',
  summary:
    "Deletes the account: needs a login in the last 15 minutes; refused (409 SHOP_HAS_SUBSCRIBERS) while the caller's shop still bills subscribers; cancels any subscription that still bills, without refund (503, and nothing deleted, when the payment gateway cannot be reached), frees username and email, ends every session, then emails a confirmation to the address the account had. The caller's shop (billing nobody) closes in the same transaction as the account: its pages and products answer 404 saying it has closed, nothing can be added to a cart at it, and its open invoices answer 409 when paid; its records stay.",
  response: z.strictObject({ deleted: z.literal(true) }),
  // The Pro plan at the platform's gateway, a shop's subscriptions at the shop's own (its keys opened).
  // The confirmation mailed to the address the account had, once the deletion is committed.
  capabilities: { payments: true, merchantKeys: 'open', email: true },
  timeoutSeconds: 25,
});

export const listOpenReports = defineRoute({
  method: 'GET',
  path: '/api/i/user/moderation/reports',
  access: 'superuser',
  handler: 'account/list-open-reports',
  summary: 'Superusers: the open reports of every object, newest first, 50 a page, with their reporters.',
  query: openReportsQuerySchema,
  response: openReportsSchema,
});

export const resolveReports = defineRoute({
  method: 'PUT',
  path: '/api/i/user/moderation/report/{objectType}/{objectId}/resolve/{resolution}',
  access: 'superuser',
  handler: 'account/resolve-reports',
  summary:
    "Superusers: resolves every open report of one object ('dismissed': nothing wrong; 'actioned': something was done) and answers how many. A report made after this stays open.",
  params: resolveReportsParamsSchema,
  response: z.strictObject({ resolved: z.int().check(z.minimum(0)) }),
});

export const unsubscribeNotificationEmails = defineRoute({
  method: 'POST',
  path: '/api/i/user/email/unsubscribe',
  access: 'public',
  handler: 'account/unsubscribe-notification-emails',
  summary:
    "Turns notification emails off for the account a notification email's unsubscribe link names (`token`), signed in or not; works every time the link is used, for a year. Also a mail client's one-click unsubscribe (RFC 8058).",
  query: z.strictObject({ token: z.string().check(z.minLength(1, 'The link has no token'), z.maxLength(200)) }),
  body: z.optional(z.strictObject({ 'List-Unsubscribe': z.literal('One-Click', { message: "Send 'One-Click'" }) })),
  response: z.strictObject({ unsubscribed: z.literal(true) }),
  acceptsFormBody: true,
  // Mail clients post here without our header or an Origin; the token is what authorises it,
  // and all it can do is turn one kind of email off.
  stateChanging: false,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allAccountRoutes = {
  getMe,
  checkUsernameIsFree,
  sendLoginEmail,
  confirmLoginEmail,
  logout,
  getUsername,
  findIdByUsername,
  findUserByEmail,
  getUser,
  getUserByIdOrUsername,
  listUsers,
  getAccount,
  getSettings,
  upsertSettings,
  updateProfile,
  updateEmailPreferences,
  blockUser,
  unblockUser,
  reportObject,
  listSessions,
  endSession,
  deleteAccount,
  listOpenReports,
  resolveReports,
  unsubscribeNotificationEmails,
};
