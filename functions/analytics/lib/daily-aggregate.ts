import { createHash } from 'node:crypto';
import {
  type AnalyticsFigures,
  FUNNEL_STEPS,
  type FunnelStepName,
  type StoredAnalyticsEvent,
} from '../../../shared/schemas/analytics';

/**
 * The figures of one UTC day (by event time), as the analytics job writes them and the figures
 * route reads them. Everything is counted once per event id ($insert_id), however often the
 * browser sent it. People are kept as short hashes, only for distinct counts across days (the
 * funnel over a period), so an aggregate names nobody.
 */
export interface DailyAggregate {
  date: string;
  generatedAt: string;
  events: number;
  activeUsers: number;
  /** Hashed distinct ids that reached each funnel step that day. */
  funnel: Record<FunnelStepName, string[]>;
  /** `Transfer Finalized` elapsed times, ascending. */
  finalizeMs: number[];
  upgrades: { started: number; completed: number };
  storefront: { purchases: number; revenue: Record<string, number> };
}

const FUNNEL_EVENTS: Readonly<Record<string, FunnelStepName>> = {
  'Transfer Form Opened': 'Form opened',
  'Transfer Files Added': 'Files added',
  'Transfer Send Clicked': 'Send clicked',
  'Transfer Finalized': 'Finalized',
};

/** Epoch milliseconds a Date can hold (±8.64e15): dayOf of anything else throws 'Invalid time value'. */
export const isDateTime = (time: unknown): time is number =>
  typeof time === 'number' && Number.isFinite(time) && Math.abs(time) <= 8.64e15;

/** The UTC day of an epoch-milliseconds time, as 'YYYY-MM-DD'. */
export const dayOf = (timeMs: number): string => new Date(timeMs).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const personKey = (distinctId: string) => createHash('sha256').update(distinctId).digest('base64url').slice(0, 16);

/** One day's figures from the stored events (any days, any repeats): only those of `date` count, each id once. */
export function aggregateDay(date: string, events: Iterable<StoredAnalyticsEvent>, generatedAt: string): DailyAggregate {
  const seen = new Set<string>();
  const people = new Set<string>();
  const funnel = Object.fromEntries(FUNNEL_STEPS.map((step) => [step, new Set<string>()])) as Record<FunnelStepName, Set<string>>;
  const finalizeMs: number[] = [];
  const upgrades = { started: 0, completed: 0 };
  const storefront = { purchases: 0, revenue: {} as Record<string, number> };
  for (const event of events) {
    if (!isDateTime(event.time) || dayOf(event.time) !== date || seen.has(event.insert_id)) continue;
    seen.add(event.insert_id);
    const person = personKey(event.distinct_id);
    people.add(person);
    const step = FUNNEL_EVENTS[event.event];
    if (step) funnel[step].add(person);
    if (event.event === 'Transfer Finalized' && typeof event.props.elapsedMs === 'number') finalizeMs.push(event.props.elapsedMs);
    else if (event.event === 'Upgrade Started') upgrades.started += 1;
    else if (event.event === 'Upgrade Completed') upgrades.completed += 1;
    else if (event.event === 'Purchase') {
      const { currency, amountMinor } = event.props;
      storefront.purchases += 1;
      if (typeof currency === 'string' && typeof amountMinor === 'number') {
        storefront.revenue[currency] = (storefront.revenue[currency] ?? 0) + amountMinor;
      }
    }
  }
  return {
    date,
    generatedAt,
    events: seen.size,
    activeUsers: people.size,
    funnel: Object.fromEntries(FUNNEL_STEPS.map((step) => [step, [...funnel[step]].sort()])) as Record<FunnelStepName, string[]>,
    finalizeMs: finalizeMs.sort((a, b) => a - b),
    upgrades,
    storefront,
  };
}

/** Nearest-rank percentile of ascending values; null without any. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? null;
}

/**
 * The figures of a period from its days' aggregates: `dates` is every day of it, oldest first,
 * and a day without an aggregate counts as a day without events.
 */
export function combineFigures(dates: readonly string[], aggregates: ReadonlyMap<string, DailyAggregate>): AnalyticsFigures {
  const funnel = FUNNEL_STEPS.map((name) => ({ name, people: new Set<string>() }));
  const finalizeMs: number[] = [];
  let generatedAt: string | null = null;
  const days: AnalyticsFigures['days'] = [];
  const upgrades: AnalyticsFigures['upgrades'] = [];
  const storefront: AnalyticsFigures['storefront'] = [];
  for (const date of dates) {
    const day = aggregates.get(date);
    if (day && (generatedAt === null || day.generatedAt > generatedAt)) generatedAt = day.generatedAt;
    days.push({ date, activeUsers: day?.activeUsers ?? 0, events: day?.events ?? 0 });
    upgrades.push({ date, started: day?.upgrades.started ?? 0, completed: day?.upgrades.completed ?? 0 });
    storefront.push({
      date,
      purchases: day?.storefront.purchases ?? 0,
      revenue: Object.entries(day?.storefront.revenue ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, amountMinor]) => ({ currency, amountMinor })),
    });
    if (!day) continue;
    for (const step of funnel) for (const person of day.funnel[step.name] ?? []) step.people.add(person);
    finalizeMs.push(...day.finalizeMs);
  }
  finalizeMs.sort((a, b) => a - b);
  const steps = funnel.map((step) => ({ name: step.name, users: step.people.size }));
  const first = steps[0]?.users ?? 0;
  const last = steps[steps.length - 1]?.users ?? 0;
  return {
    generatedAt,
    days,
    funnel: { steps, conversion: first === 0 ? 0 : Math.min(1, last / first) },
    finalizeTiming: { count: finalizeMs.length, p50Ms: percentile(finalizeMs, 0.5), p90Ms: percentile(finalizeMs, 0.9) },
    upgrades,
    storefront,
  };
}
