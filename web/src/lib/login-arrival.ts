import { useEffect } from 'react';
import { APP_NAME } from '@shared/constants';
import { readLoginArrival } from '@shared/return-path';
import { track } from './analytics';
import { toast } from './toast';

/**
 * Greets a person back from an outside login (Google, Twitter) as the email login's confirm page
 * does, and counts the login by its provider: the login lands with #welcome (a new account) or
 * #logged-in (suffixed with the provider but for Google's), read once and then removed from the
 * address so a reload or a shared link does not greet again.
 */
export function useLoginArrivalToast(): void {
  useEffect(() => {
    const arrival = readLoginArrival(window.location.hash.slice(1));
    if (!arrival) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    track('Login', { method: arrival.provider, success: true });
    toast.success(arrival.isNewAccount ? `Welcome to ${APP_NAME}` : 'You are logged in');
  }, []);
}
