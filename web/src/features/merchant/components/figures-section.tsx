import { useId } from 'react';
import { BarChart } from '../../../components/bar-chart';
import { Button } from '../../../components/button';
import type { FiguresView, SaleView } from '../api/merchant-keys';
import { formatDate, formatMoney, formatShortDay } from '../lib/format';
import factsStyles from '../../../components/facts.module.css';
import pageStyles from '../../../components/page.module.css';
import tableStyles from '../../../components/table.module.css';
import styles from './merchant.module.css';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * The last 30 days of a shop, a product or a grade: totals (revenue net of refunds, and the
 * refunds), the subscriptions running now, and revenue and orders day by day as two bar charts (each with its figures in a table for screen
 * readers).
 */
/** How a sale that is not a new order reads in the list. */
const SALE_KIND_PREFIX = { order: '', renewal: 'Renewal: ', 'add-on': 'Add-on: ' } as const;

export function FiguresSection({ figures, title = 'Last 30 days' }: { figures: FiguresView; title?: string }) {
  const titleId = useId();
  const money = (amountMinor: number) => formatMoney({ amountMinor, currency: figures.currency });
  const days = figures.days.map((day) => ({ ...day, label: formatShortDay(day.date) }));
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        {title}
      </h2>
      <dl className={styles.totals}>
        <div className={factsStyles.total}>
          <dt>Revenue</dt>
          <dd>{formatMoney(figures.totals.revenue)}</dd>
        </div>
        <div className={factsStyles.total}>
          <dt>Discounts given</dt>
          <dd>{formatMoney(figures.totals.discounts)}</dd>
          <dt>Refunds</dt>
          <dd>
            {formatMoney(figures.totals.refunds.amount)}
            {figures.totals.refunds.count > 0 ? ` (${count(figures.totals.refunds.count)})` : ''}
          </dd>
        </div>
        <div className={factsStyles.total}>
          <dt>Orders</dt>
          <dd>{count(figures.totals.orders)}</dd>
        </div>
        <div className={factsStyles.total}>
          <dt>Units sold</dt>
          <dd>{count(figures.totals.units)}</dd>
        </div>
        <div className={factsStyles.total}>
          <dt>Active subscriptions</dt>
          <dd>{count(figures.activeSubscriptions)}</dd>
        </div>
        <div className={factsStyles.total}>
          <dt>Past due</dt>
          <dd>{count(figures.pastDueSubscriptions)}</dd>
        </div>
      </dl>
      <div className={factsStyles.charts}>
        <BarChart
          title="Revenue by day"
          labelHeader="Day"
          valueHeader="Revenue"
          data={days.map((day) => ({ key: day.date, label: day.label, value: day.revenueMinor }))}
          formatValue={money}
        />
        <BarChart
          title="Orders by day"
          labelHeader="Day"
          valueHeader="Orders"
          data={days.map((day) => ({ key: day.date, label: day.label, value: day.orders }))}
          formatValue={count}
        />
      </div>
    </section>
  );
}

/**
 * The latest sales: when, to whom (to deliver), what and for how much; with `onRefund`, each
 * order (not a renewal nor an add-on, which have no order of theirs) can be refunded.
 */
export function RecentSales({ sales, onRefund }: { sales: readonly SaleView[]; onRefund?: (sale: SaleView) => void }) {
  const titleId = useId();
  return (
    <section className={pageStyles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pageStyles.sectionTitle}>
        Recent sales
      </h2>
      {sales.length ? (
        <div className={tableStyles.tableWrap}>
          <table className={tableStyles.table} aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Customer</th>
                <th scope="col">Item</th>
                <th scope="col" className={tableStyles.amount}>
                  Amount
                </th>
                {onRefund ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {sales.map((sale) => (
                <tr key={`${sale.invoiceId}-${sale.paidAt}`}>
                  <td>
                    <time dateTime={sale.paidAt}>{formatDate(sale.paidAt)}</time>
                  </td>
                  <td>
                    {sale.customer.name}
                    {sale.customer.email ? (
                      <>
                        <br />
                        <span className={styles.itemMeta}>{sale.customer.email}</span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {SALE_KIND_PREFIX[sale.kind]}
                    {/* The API's description already says each line's quantity ("Mug — Large × 2"). */}
                    {sale.description}
                  </td>
                  <td className={tableStyles.amount}>{formatMoney(sale.amount)}</td>
                  {onRefund ? (
                    <td>
                      {sale.kind === 'order' ? (
                        <Button
                          variant="secondary"
                          aria-label={`Refund ${sale.description} to ${sale.customer.name}`}
                          onClick={() => onRefund(sale)}
                        >
                          Refund
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className={pageStyles.muted}>No sales yet.</p>
      )}
    </section>
  );
}
