import { type ReactNode, useId } from 'react';
import { BarChart } from '../../../components/bar-chart';
import { formatMoney } from '@shared/payments/money';
import type { AnalyticsFigures } from '../api/get-analytics-figures';
import factsStyles from '../../../components/facts.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './analytics.module.css';

const count = (value: number) => value.toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.1 ? 1 : 0)}%`;

/** A duration in milliseconds as a person reads it: "850 ms", "4.2 s", "3 min 5 s". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * A figures day (YYYY-MM-DD, a UTC calendar day) as it is written, whatever the reader's time
 * zone: "24 Nov". Read as an instant it would show the day before west of UTC.
 */
export function formatShortDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** Revenue over the period, one sum per currency (sales in two currencies are never added up). */
function revenueByCurrency(storefront: AnalyticsFigures['storefront']) {
  const sums = new Map<string, number>();
  for (const day of storefront) {
    for (const money of day.revenue) sums.set(money.currency, (sums.get(money.currency) ?? 0) + money.amountMinor);
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amountMinor]) => ({ currency, amountMinor }));
}

function Total({ term, value }: { term: string; value: string }) {
  return (
    <div className={factsStyles.total}>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The transfer funnel: distinct people reaching each step, and their share of those who opened the form. */
function Funnel({ funnel }: { funnel: AnalyticsFigures['funnel'] }) {
  const first = funnel.steps[0]?.users ?? 0;
  return (
    <table className={styles.funnel}>
      <caption className="visually-hidden">Transfer funnel</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">People</th>
          <th scope="col">Of those who opened the form</th>
        </tr>
      </thead>
      <tbody>
        {funnel.steps.map((step) => {
          const share = first > 0 ? step.users / first : 0;
          return (
            <tr key={step.name}>
              <th scope="row">{step.name}</th>
              <td>{count(step.users)}</td>
              <td className={styles.funnelBarCell}>
                <span className="visually-hidden">{percent(share)}</span>
                <div className={styles.funnelBar} style={{ width: `${Math.round(share * 100)}%` }} aria-hidden="true" />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Everything the owner looks at, for the chosen period: the totals first, then people and
 * events by day, the transfer funnel and send times, upgrades and storefront sales. Each chart
 * carries its figures in a table for screen readers (BarChart).
 */
export function FiguresView({ figures }: { figures: AnalyticsFigures }) {
  const day = (date: string) => ({ key: date, label: formatShortDay(date) });
  const totalEvents = figures.days.reduce((sum, entry) => sum + entry.events, 0);
  const peakUsers = Math.max(0, ...figures.days.map((entry) => entry.activeUsers));
  const purchases = figures.storefront.reduce((sum, entry) => sum + entry.purchases, 0);
  const revenue = revenueByCurrency(figures.storefront);
  const upgrades = figures.upgrades.reduce((sum, entry) => sum + entry.completed, 0);

  return (
    <>
      <dl className={factsStyles.totals} aria-label="At a glance">
        <Total term="Most active users in a day" value={count(peakUsers)} />
        <Total term="Events" value={count(totalEvents)} />
        <Total term="Transfer conversion" value={percent(figures.funnel.conversion)} />
        <Total term="Upgrades" value={count(upgrades)} />
      </dl>

      <Section title="People and events">
        <div className={factsStyles.charts}>
          <BarChart
            title="Active users by day"
            labelHeader="Day"
            valueHeader="Active users"
            data={figures.days.map((entry) => ({ ...day(entry.date), value: entry.activeUsers }))}
            formatValue={count}
            summary={`Active users by day: at most ${count(peakUsers)} in a day over ${figures.days.length} days.`}
          />
          <BarChart
            title="Events by day"
            labelHeader="Day"
            valueHeader="Events"
            data={figures.days.map((entry) => ({ ...day(entry.date), value: entry.events }))}
            formatValue={count}
          />
        </div>
      </Section>

      <Section title="Transfers">
        <Funnel funnel={figures.funnel} />
        <p className={pageStyles.muted}>
          {percent(figures.funnel.conversion)} of the people who opened the form sent a transfer.
        </p>
        <dl className={factsStyles.totals} aria-label="Time to send">
          <Total term="Sends timed" value={count(figures.finalizeTiming.count)} />
          <Total term="Median (p50)" value={formatDuration(figures.finalizeTiming.p50Ms)} />
          <Total term="p90" value={formatDuration(figures.finalizeTiming.p90Ms)} />
        </dl>
      </Section>

      <Section title="Upgrades and sales">
        <div className={factsStyles.charts}>
          <BarChart
            title="Upgrades started by day"
            labelHeader="Day"
            valueHeader="Started"
            data={figures.upgrades.map((entry) => ({ ...day(entry.date), value: entry.started }))}
            formatValue={count}
          />
          <BarChart
            title="Upgrades completed by day"
            labelHeader="Day"
            valueHeader="Completed"
            data={figures.upgrades.map((entry) => ({ ...day(entry.date), value: entry.completed }))}
            formatValue={count}
          />
          <BarChart
            title="Storefront purchases by day"
            labelHeader="Day"
            valueHeader="Purchases"
            data={figures.storefront.map((entry) => ({ ...day(entry.date), value: entry.purchases }))}
            formatValue={count}
          />
          <dl className={factsStyles.totals} aria-label="Storefront revenue">
            <Total term="Purchases" value={count(purchases)} />
            {revenue.length ? (
              revenue.map((money) => (
                <Total key={money.currency} term={`Revenue (${money.currency})`} value={formatMoney(money)} />
              ))
            ) : (
              <Total term="Revenue" value="None yet" />
            )}
          </dl>
        </div>
      </Section>
    </>
  );
}
