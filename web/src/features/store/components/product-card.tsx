import { useId } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { ProductStockView } from '../api/store-keys';
import { formatMoney } from '../lib/format';
import { productPath } from '../lib/paths';
import pageStyles from '../../../components/page.module.css';
import styles from './store.module.css';

/** "from $15.00"; a product with no grade on sale yet says so rather than offering anything. */
function priceLine(product: ProductStockView): string {
  if (product.priceFrom) return `from ${formatMoney(product.priceFrom)}`;
  return product.stocked && !product.hasGradeOnSale ? 'Not on sale yet' : 'Not on sale';
}

/**
 * One product in a shop: its first image, title, tagline and lowest price. The whole card opens
 * the product (the title's link covers it), so it is one tab stop.
 */
export function ProductCard({ product }: { product: ProductStockView }) {
  const titleId = useId();
  const image = product.images[0];
  return (
    <article
      className={styles.productCard}
      aria-labelledby={titleId}
      // The merchant's accent colour, as a stripe along the top: decoration, it means nothing.
      style={product.display.accentColor ? { borderTop: `4px solid ${product.display.accentColor}` } : undefined}
    >
      {/* The title says what the picture shows; it adds nothing read aloud. */}
      {image ? (
        <img className={styles.productImage} src={image.url} alt="" loading="lazy" />
      ) : (
        <div className={styles.productImagePlaceholder} aria-hidden="true">
          {product.title.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div className={styles.productBody}>
        {product.display.featured ? (
          <span className={styles.badge} data-tone="positive">
            Featured
          </span>
        ) : null}
        <h3 id={titleId} className={styles.productTitle}>
          <Link to={productPath(product.id)}>{product.title}</Link>
        </h3>
        {product.display.tagline ? <p className={pageStyles.muted}>{product.display.tagline}</p> : null}
        <p className={styles.priceFrom}>{priceLine(product)}</p>
      </div>
    </article>
  );
}
