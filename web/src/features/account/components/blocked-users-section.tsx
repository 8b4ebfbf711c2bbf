import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { PublicUser } from '../api/account-keys';
import { useUnblockUser } from '../api/unblock-user';
import styles from './account.module.css';
import { Section } from './section';
import { UserAvatar } from '../../../components/user-avatar';

/** People the user blocked, each with Unblock. */
export function BlockedUsersSection({ blockedUsers }: { blockedUsers: PublicUser[] }) {
  const unblock = useUnblockUser();

  const unblockUser = (user: PublicUser) =>
    unblock.mutate(user.userId, {
      onSuccess: () => toast.success(`Unblocked @${user.username}`),
      onError: (error) => toast.error(`Unblocking failed: ${error.message}`),
    });

  return (
    <Section title="Blocked users" lede="Blocked people cannot interact with you.">
      {blockedUsers.length === 0 ? (
        <p className={styles.muted}>You have not blocked anyone.</p>
      ) : (
        <ul className={styles.list} aria-label="Blocked users">
          {blockedUsers.map((user) => {
            const pending = unblock.isPending && unblock.variables === user.userId;
            return (
              <li key={user.userId} className={styles.item}>
                <div className={styles.itemMain}>
                  <UserAvatar user={user} size={36} />
                  <div className={styles.itemText}>
                    <span className={styles.itemTitle}>{user.name || user.username}</span>
                    <Link className={styles.muted} to={`/@${user.username}`}>
                      @{user.username}
                    </Link>
                  </div>
                </div>
                <Button variant="secondary" size="small" onClick={() => unblockUser(user)} disabled={pending} aria-busy={pending}>
                  {pending ? 'Unblocking…' : 'Unblock'}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
