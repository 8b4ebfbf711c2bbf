import type { CurrentUser } from '../../lib/current-user';
import styles from './top-bar.module.css';

export function Avatar({ user }: { user: CurrentUser }) {
  if (user.imageUrl) return <img className={styles.avatar} src={user.imageUrl} alt="" width={32} height={32} />;
  return (
    <span className={`${styles.avatar} ${styles.avatarFallback}`} aria-hidden="true">
      {user.username.slice(0, 1).toUpperCase()}
    </span>
  );
}
