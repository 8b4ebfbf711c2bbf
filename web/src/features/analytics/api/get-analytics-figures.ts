import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

export type { AnalyticsFigures } from '@shared/schemas/analytics';

const getFiguresEndpoint = endpoint<typeof routes.getAnalyticsFigures>('GET', '/api/i/analytics/superuser/v/figures');

export const analyticsKeys = {
  all: ['analytics'] as const,
  figures: (days: number) => ['analytics', 'figures', days] as const,
};

/** The product's figures over the last `days` days, from the stored events' daily aggregates. */
export function getAnalyticsFigures(days: number, signal?: AbortSignal) {
  return getFiguresEndpoint({ query: { days }, ...(signal ? { signal } : {}) });
}

export function analyticsFiguresQueryOptions(days: number) {
  return queryOptions({ queryKey: analyticsKeys.figures(days), queryFn: ({ signal }) => getAnalyticsFigures(days, signal) });
}

/**
 * The figures for a superuser (idle for anyone else: the route would refuse them). A change of
 * period keeps the last figures on screen until the new ones arrive.
 */
export function useAnalyticsFigures(days: number, enabled: boolean) {
  return useQuery({ ...analyticsFiguresQueryOptions(days), enabled, placeholderData: keepPreviousData });
}
