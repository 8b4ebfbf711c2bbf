import { type CSSProperties, useState } from 'react';
import { initials } from '../lib/format';
import styles from './publication-table.module.css';

const HUES = [158, 190, 212, 248, 280, 326, 14, 36, 96];

function hueOf(seed: string): number {
  let hash = 0;
  for (let index = 0; index < seed.length; index++) hash = (hash * 31 + seed.charCodeAt(index)) >>> 0;
  return HUES[hash % HUES.length] ?? HUES[0]!;
}

/** The publication's image, or its initials on a colour picked from its slug when it has none. */
export function Avatar({
  name,
  seed,
  imageUrl,
  size = 40,
}: {
  name: string;
  seed: string;
  imageUrl: string | null;
  /** Width and height in CSS pixels. */
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const sized = { '--avatar-size': `${size}px` } as CSSProperties;
  if (imageUrl && !failed) {
    return (
      <img
        className={styles.avatar}
        style={sized}
        src={imageUrl}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span
      className={styles.avatar}
      data-initials=""
      style={{ ...sized, '--avatar-hue': hueOf(seed) } as CSSProperties}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
