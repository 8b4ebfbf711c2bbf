import { Link } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { BLOG_URL, HELP_URL } from '../../lib/site-links';
import { APP_NAME } from '@shared/constants';
import styles from './footer.module.css';

export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.about}>
          <span className={styles.brand}>
            <BrandMark size={22} />
            {APP_NAME}
          </span>
          <p className={styles.tagline}>The most followed and fastest growing blog publications, updated hourly.</p>
        </div>
        <nav aria-label="Rankings">
          <h2 className={styles.heading}>Rankings</h2>
          <ul className={styles.links}>
            <li>
              <Link to="/">Most followed</Link>
            </li>
            <li>
              <Link to="/active">Active</Link>
            </li>
            <li>
              <Link to="/growing">Fastest growing</Link>
            </li>
            <li>
              <Link to="/recent">Recently active</Link>
            </li>
            <li>
              <Link to="/topics">Topics</Link>
            </li>
            <li>
              <Link to="/suggest">Suggest a publication</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Store">
          <h2 className={styles.heading}>Store</h2>
          <ul className={styles.links}>
            <li>
              <Link to="/store/orders">My orders</Link>
            </li>
            <li>
              <Link to="/merchant">Your shop</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="About">
          <h2 className={styles.heading}>{APP_NAME}</h2>
          <ul className={styles.links}>
            <li>
              <Link to="/about">About</Link>
            </li>
            <li>
              <a href={BLOG_URL} target="_blank" rel="noopener noreferrer">
                Blog
              </a>
            </li>
            <li>
              <a href={HELP_URL}>Help</a>
            </li>
          </ul>
        </nav>
        <p className={styles.legal}>
          © {new Date().getFullYear()} {APP_NAME}
        </p>
      </div>
    </footer>
  );
}
