import { useEffect } from 'react';
import { useCurrentUser } from '../current-user';
import { identify, resetAnalytics } from './track';

/**
 * Keeps analytics' idea of who is here in step with the session: the signed-in person's userId
 * once known, and nobody once it is known that nobody is signed in (a logout, here or in another
 * tab, or a session that ended).
 */
export function useAnalyticsIdentity(): void {
  const { user, isPending } = useCurrentUser();
  const userId = user?.userId ?? null;
  useEffect(() => {
    if (isPending) return;
    if (userId) identify(userId);
    else resetAnalytics();
  }, [userId, isPending]);
}
