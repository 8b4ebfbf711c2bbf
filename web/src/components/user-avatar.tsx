import styles from './user-avatar.module.css';

/** Up to two initials from the name, else the username's first letter. */
export function initials(name: string, username: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
  return letters || username.charAt(0).toUpperCase() || '?';
}

/** A user's picture, or their initials on a soft circle. Decorative: the name is always next to it. */
export function UserAvatar({
  user,
  size = 40,
}: {
  user: { name: string; username: string; imageUrl: string | null };
  size?: number;
}) {
  if (user.imageUrl) {
    return <img className={styles.avatar} src={user.imageUrl} alt="" width={size} height={size} />;
  }
  return (
    <span className={styles.avatar} style={{ width: size, height: size, fontSize: size * 0.4 }} aria-hidden="true">
      {initials(user.name, user.username)}
    </span>
  );
}
