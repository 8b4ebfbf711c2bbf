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
export function Avatar({ name, seed, imageUrl }: { name: string; seed: string; imageUrl: string | null }) {
  const [failed, setFailed] = useState(false);
  if (imageUrl && !failed) {
    return (
      <img
        className={styles.avatar}
        src={imageUrl}
        alt=""
        width={40}
        height={40}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span className={styles.avatar} data-initials="" style={{ '--avatar-hue': hueOf(seed) } as CSSProperties} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
