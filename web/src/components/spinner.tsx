import styles from './spinner.module.css';

/** A loading indicator announced to screen readers as a status. */
export function Spinner({ size = 24, label = 'Loading' }: { size?: number; label?: string }) {
  return (
    <span role="status" aria-live="polite">
      <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** A spinner centred in the page area, for a route or a section that is loading. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className={styles.center}>
      <Spinner size={32} {...(label ? { label } : {})} />
    </div>
  );
}
