import * as z from 'zod';
import {
  confirmLoginEmailBodySchema,
  currentUserSchema,
  sendLoginEmailBodySchema,
  sendLoginEmailQuerySchema,
  usernameIsFreeQuerySchema,
  usernameIsFreeResponseSchema,
} from '../schemas/account';
import { defineRoute } from './define-route';

const PREFIX = '/api/i/user';

export const accountRoutes = {
  getMe: defineRoute({
    method: 'GET',
    path: `${PREFIX}/me/v`,
    access: 'user',
    handler: 'account/get-me',
    summary: 'The signed-in user (SPEC.md section 3 current-user shape).',
    response: currentUserSchema,
  }),
  checkUsernameIsFree: defineRoute({
    method: 'GET',
    path: `${PREFIX}/userme/v/check/usernameIsFree`,
    access: 'public',
    handler: 'account/check-username-is-free',
    summary: 'Whether a username can be taken: not taken, not reserved, well formed.',
    query: usernameIsFreeQuerySchema,
    response: usernameIsFreeResponseSchema,
  }),
  sendLoginEmail: defineRoute({
    method: 'POST',
    path: `${PREFIX}/auth/login/email`,
    access: 'public',
    handler: 'account/send-login-email',
    summary: 'Emails a one-time login link; the same answer whether or not an account exists.',
    query: sendLoginEmailQuerySchema,
    body: sendLoginEmailBodySchema,
    response: z.object({ sent: z.literal(true) }),
    sendsEmail: true,
  }),
  confirmLoginEmail: defineRoute({
    method: 'POST',
    path: `${PREFIX}/auth/login/email/confirm`,
    access: 'public',
    handler: 'account/confirm-login-email',
    summary: 'Spends a login link (from the confirm page) and starts a session.',
    body: confirmLoginEmailBodySchema,
    response: z.object({ user: currentUserSchema, isNewAccount: z.boolean() }),
  }),
  logout: defineRoute({
    method: 'GET',
    path: `${PREFIX}/auth/logout`,
    access: 'public',
    handler: 'account/logout',
    summary: 'Ends the current session on the server and clears the cookie.',
    response: z.object({ loggedOut: z.literal(true) }),
    writes: true,
  }),
};
