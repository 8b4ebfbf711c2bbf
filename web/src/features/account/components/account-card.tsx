import type { ReactNode } from 'react';
import styles from './account-page.module.css';

/** A centred card with an icon, the page's h1, a line of text and its actions. */
export function AccountCard({
  icon,
  title,
  children,
  actions,
  tone,
  role,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  tone?: 'error';
  role?: 'alert' | 'status';
}) {
  return (
    <section className={styles.page}>
      <div className={styles.card} data-tone={tone} role={role}>
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
        <h1 className={styles.title}>{title}</h1>
        {children ? <div className={styles.text}>{children}</div> : null}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
    </section>
  );
}
