import { PrefetchLink as Link } from '../../components/prefetch-link';
import { BrandMark } from '../../components/brand-mark';
import { useCurrentUser } from '../../lib/current-user';
import { menuNetworkProducts } from '../../lib/network-products';
import { BLOG_URL, HELP_URL } from '../../lib/site-links';
import { APP_NAME } from '@shared/constants';
import styles from './footer.module.css';
import { ProductLink } from './product-link';

export function Footer() {
  const { user } = useCurrentUser();
  // The other apps' pages (the Rankings column is this site's own); a visitor's leave out one's own things.
  const appPages = menuNetworkProducts({ signedIn: Boolean(user) }).filter((product) => product.app !== 'ranking');
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
              <Link to="/archive">Monthly archive</Link>
            </li>
            <li>
              <Link to="/suggest">Suggest a publication</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Apps">
          <h2 className={styles.heading}>Apps</h2>
          <ul className={styles.links}>
            {appPages.map((product) => (
              <li key={product.path}>
                <ProductLink app={product.app} path={product.path}>
                  {product.title}
                </ProductLink>
              </li>
            ))}
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
