import { useEffect } from 'react';
import { APP_NAME } from '../../../shared/constants';
import { LOGIN_ARRIVAL_FRAGMENTS } from '../../../shared/return-path';
import { track } from './analytics';
import { toast } from './toast';

/**
 * Greets a person back from an outside login (Google) as the email login's confirm page does:
 * the login lands with #welcome (a new account) or #logged-in, read once and then removed from
 * the address so a reload or a shared link does not greet again.
 */
export function useLoginArrivalToast(): void {
  useEffect(() => {
    const fragment = window.location.hash.slice(1);
    if (fragment !== LOGIN_ARRIVAL_FRAGMENTS.created && fragment !== LOGIN_ARRIVAL_FRAGMENTS.returning) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    // Only the Google login lands with these fragments.
    track('Login', { method: 'google', success: true });
    toast.success(fragment === LOGIN_ARRIVAL_FRAGMENTS.created ? `Welcome to ${APP_NAME}` : 'You are logged in');
  }, []);
}
