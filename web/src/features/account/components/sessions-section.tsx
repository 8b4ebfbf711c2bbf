import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { toast } from '../../../lib/toast';
import type { SessionSummary } from '../api/account-keys';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/list-sessions';
import styles from './account.module.css';
import { Section } from './section';
import { describeUserAgent, formatDateTime } from './format';

/** Where the user is logged in; any device but this one can be logged out from here. */
export function SessionsSection({ userId }: { userId: string }) {
  const sessions = useSessions(userId);
  const end = useEndSession(userId);

  const logOut = (session: SessionSummary) =>
    end.mutate(session.sessionId, {
      onSuccess: () => toast.success(`Logged out ${describeUserAgent(session.userAgent)}`),
      onError: (error) => toast.error(`Logging out that device failed: ${error.message}`),
    });

  let content;
  if (sessions.isPending) {
    content = <Spinner label="Loading sessions" />;
  } else if (sessions.isError) {
    content = (
      <ErrorState
        title="Sessions could not be loaded"
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
        retrying={sessions.isFetching}
      />
    );
  } else if (sessions.data.sessions.length === 0) {
    content = <p className={styles.muted}>No active sessions.</p>;
  } else {
    const sorted = [...sessions.data.sessions].sort(
      (a, b) => Number(b.isCurrent) - Number(a.isCurrent) || b.lastUsedAt.localeCompare(a.lastUsedAt),
    );
    content = (
      <ul className={styles.list} aria-label="Sessions">
        {sorted.map((session) => {
          const device = describeUserAgent(session.userAgent);
          const ending = end.isPending && end.variables === session.sessionId;
          return (
            <li key={session.sessionId} className={styles.item}>
              <div className={styles.itemText}>
                <span className={styles.itemTitle} title={session.userAgent || undefined}>
                  {device}
                  {session.isCurrent ? <span className={styles.badge}>This device</span> : null}
                </span>
                <span className={styles.muted}>
                  Created <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time> · Last used{' '}
                  <time dateTime={session.lastUsedAt}>{formatDateTime(session.lastUsedAt)}</time>
                </span>
              </div>
              {session.isCurrent ? null : (
                <Button variant="secondary" size="small" onClick={() => logOut(session)} disabled={ending} aria-busy={ending}>
                  {ending ? 'Logging out…' : 'Log out'}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Section title="Sessions" lede="Devices where you are logged in.">
      {content}
    </Section>
  );
}
