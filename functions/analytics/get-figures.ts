import * as analyticsRoutes from '../../shared/routes/analytics';
import { createHandler } from '../lib/http/create-handler';
import { readAggregate } from './lib/analytics-bucket';
import { addDays, combineFigures, type DailyAggregate, dayOf } from './lib/daily-aggregate';

/** The figures of the last `days` days (today included), from the daily aggregates only. */
export const handler = createHandler(analyticsRoutes.getAnalyticsFigures, async ({ query }) => {
  const today = dayOf(Date.now());
  const dates = Array.from({ length: query.days }, (_, index) => addDays(today, index - query.days + 1));
  const read = await Promise.all(dates.map(async (date) => [date, await readAggregate(date)] as const));
  const aggregates = new Map<string, DailyAggregate>();
  for (const [date, aggregate] of read) if (aggregate) aggregates.set(date, aggregate);
  return combineFigures(dates, aggregates);
});
