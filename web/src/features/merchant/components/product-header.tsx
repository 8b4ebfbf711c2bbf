import type { ReactNode } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { saleWords, VISIBILITY_NAMES } from '../lib/format';
import type { Visibility } from '../api/merchant-keys';
import { MERCHANT_PATH } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/** Where a page is in the shop: "Your shop › Zine club › Monthly club", the last one being this page. */
export function Breadcrumb({ trail, current }: { trail: { label: string; to: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className={styles.breadcrumb}>
        <li>
          <Link to={MERCHANT_PATH}>Your shop</Link>
        </li>
        {trail.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}

/** A product or grade's name and its state in words (the colours only repeat them), with a link to it in the shop. */
export function ItemHeader({
  title,
  visibility,
  stocked,
  grades,
  extra,
  shopLink,
}: {
  title: string;
  visibility: Visibility;
  stocked: boolean;
  /** A product's grades: whether one is on sale, and how many it has (see saleWords). */
  grades?: { hasGradeOnSale: boolean; gradeCount: number } | undefined;
  extra?: ReactNode;
  shopLink: string;
}) {
  return (
    <header className={styles.header}>
      <div className={styles.headerRow}>
        <h1 className={pageStyles.title}>{title}</h1>
        <Link to={shopLink}>View in shop</Link>
      </div>
      <div className={styles.badges}>
        <span className={styles.badge} data-tone={visibility === 'public' ? 'positive' : undefined}>
          {VISIBILITY_NAMES[visibility]}
        </span>
        <span className={styles.badge} data-tone={saleWords({ stocked, ...grades }) === 'On sale' ? 'positive' : 'warning'}>
          {saleWords({ stocked, ...grades })}
        </span>
        {extra}
      </div>
    </header>
  );
}
