import { useMutation } from '@tanstack/react-query';
import { ApiError, endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const sendVerificationEmailEndpoint = endpoint<typeof routes.sendVerificationEmail>('PUT', '/api/i/user/auth/verify/email');

/** Emails a new verification link to the signed-in user's address (one per address per minute). */
export function sendVerificationEmail() {
  return sendVerificationEmailEndpoint({ body: {} });
}

export function useSendVerificationEmail() {
  return useMutation({ mutationKey: ['account', 'sendVerificationEmail'], mutationFn: sendVerificationEmail });
}

/** The server refused because the address is verified already: there is nothing to send. */
export function isAlreadyVerified(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409;
}
