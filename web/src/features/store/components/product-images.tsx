import { useState } from 'react';
import type { ProductStockView } from '../api/store-keys';
import styles from './store.module.css';

/** A product's images: one large, the others as buttons that show them large in its place. */
export function ProductImages({ product }: { product: ProductStockView }) {
  const [shown, setShown] = useState(0);
  const { images, title } = product;
  const current = images[shown] ?? images[0];
  if (!current) return null;
  const count = images.length;
  return (
    <div className={styles.gallery}>
      <img
        className={styles.galleryMain}
        src={current.url}
        alt={count > 1 ? `${title}, image ${shown + 1} of ${count}` : title}
      />
      {count > 1 ? (
        <ul className={styles.thumbs} aria-label="Images">
          {images.map((image, index) => (
            <li key={image.fileId}>
              <button
                type="button"
                className={styles.thumb}
                aria-pressed={index === shown}
                aria-label={`Show image ${index + 1} of ${count}`}
                onClick={() => setShown(index)}
              >
                <img src={image.url} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
