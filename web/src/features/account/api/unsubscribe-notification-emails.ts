import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const unsubscribeEndpoint = endpoint<typeof routes.unsubscribeNotificationEmails>('POST', '/api/i/user/email/unsubscribe');

/** Turns notification emails off for the account a notification email's link names. */
export function unsubscribeNotificationEmails(token: string) {
  return unsubscribeEndpoint({ query: { token } });
}

export function useUnsubscribeNotificationEmails() {
  return useMutation({
    mutationKey: ['account', 'unsubscribeNotificationEmails'],
    mutationFn: unsubscribeNotificationEmails,
  });
}
