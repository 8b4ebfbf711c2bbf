import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import type { StockState } from '../api/merchant-keys';
import styles from './merchant.module.css';

const STATES: readonly StockState[] = ['stocked', 'unstocked'];
const NAMES: Readonly<Record<StockState, string>> = { stocked: 'Stocked', unstocked: 'Unstocked' };

/**
 * Stocked and unstocked as two tabs (the WAI-ARIA tabs pattern: arrow keys, Home and End move
 * between them). Only the open tab's panel is rendered, so its list is asked for only when shown.
 */
export function StockTabs({
  label,
  counts,
  children,
}: {
  label: string;
  /** Shown in each tab's name when known: "Stocked (3)". */
  counts?: Readonly<Record<StockState, number>> | undefined;
  children: (state: StockState) => ReactNode;
}) {
  const id = useId();
  const [open, setOpen] = useState<StockState>('stocked');
  const tabs = useRef<Partial<Record<StockState, HTMLButtonElement | null>>>({});

  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = STATES.indexOf(open);
    const next =
      event.key === 'ArrowRight'
        ? STATES[(index + 1) % STATES.length]
        : event.key === 'ArrowLeft'
          ? STATES[(index - 1 + STATES.length) % STATES.length]
          : event.key === 'Home'
            ? STATES[0]
            : event.key === 'End'
              ? STATES[STATES.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setOpen(next);
    tabs.current[next]?.focus();
  };

  return (
    <div>
      <div className={styles.tabs} role="tablist" aria-label={label}>
        {STATES.map((state) => (
          <button
            key={state}
            ref={(element) => {
              tabs.current[state] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${state}-tab`}
            className={styles.tab}
            aria-selected={open === state}
            // Only the open tab's panel exists: a reference to a missing id would be an error.
            aria-controls={open === state ? `${id}-${state}-panel` : undefined}
            tabIndex={open === state ? 0 : -1}
            onClick={() => setOpen(state)}
            onKeyDown={move}
          >
            {NAMES[state]}
            {counts ? ` (${counts[state].toLocaleString('en-US')})` : ''}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-${open}-panel`}
        aria-labelledby={`${id}-${open}-tab`}
        className={styles.tabPanel}
        tabIndex={0}
      >
        {children(open)}
      </div>
    </div>
  );
}
