import { useMutation } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const sendLoginEmailEndpoint = endpoint<typeof routes.sendLoginEmail>('POST', '/api/i/user/auth/login/email');

/** Free-form data from the page that opened the login modal: sent with the email login request, kept with the link. */
export type LoginContextData = Record<string, unknown>;

export interface SendLoginEmailInput {
  email: string;
  contextData?: LoginContextData | undefined;
}

/** Emails a one-time login link to `email`. The answer is the same whether or not an account exists. */
export function sendLoginEmail({ email, contextData }: SendLoginEmailInput) {
  return sendLoginEmailEndpoint({ query: { email }, body: contextData ? { contextData } : {} });
}

export function useSendLoginEmail() {
  return useMutation({ mutationKey: ['account', 'sendLoginEmail'], mutationFn: sendLoginEmail });
}

/** The server refused because too many links were asked for: its message says when to try again. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 429 || error.code === 'RATE_LIMITED');
}

/** A simple shape check on top of the browser's own type="email" validity. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value.trim()) && value.trim().length <= 254;
}
