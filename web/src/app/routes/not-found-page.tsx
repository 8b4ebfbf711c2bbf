import { Link, useLocation } from 'react-router';
import { buttonClassName } from '../../components/button';
import { PageMeta } from '../../components/page-meta';
import { APP_NAME } from '../../../../shared/constants';
import styles from './content-page.module.css';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className={`${styles.page} ${styles.centered}`}>
      <PageMeta seo={{ title: `Page not found · ${APP_NAME}` }} />
      <p className={styles.code}>404</p>
      <h1 className={styles.title}>Page not found</h1>
      <p className={styles.lead}>
        There is no page at <code>{pathname}</code>. It may have moved, or the link may be mistyped.
      </p>
      <p>
        <Link to="/" className={buttonClassName()}>
          Back to the rankings
        </Link>
      </p>
    </section>
  );
}
