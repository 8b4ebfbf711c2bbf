import type { ReactNode } from 'react';
import { matchRanges } from '../lib/highlight';

/** A publication's name with the parts a search for `highlight` matched in <mark>. */
export function HighlightedName({ name, highlight }: { name: string; highlight: string | undefined }) {
  const ranges = highlight ? matchRanges(name, highlight) : [];
  if (ranges.length === 0) return <>{name}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(name.slice(at, start));
    parts.push(<mark key={start}>{name.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(name.slice(at));
  return <>{parts}</>;
}
