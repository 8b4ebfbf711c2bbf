import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { proRefundKeys } from './pro-refund-keys';

const listProPaymentsOfPersonEndpoint = endpoint<typeof routes.listProPaymentsOfPerson>(
  'GET',
  '/api/i/ourTransfers/superuser/v/payments',
);

/** A person's Pro charges (by username or email), each with what is refunded and left (superusers only). */
export function listProPaymentsOfPerson(person: string, signal?: AbortSignal) {
  return listProPaymentsOfPersonEndpoint({ query: { person }, ...(signal ? { signal } : {}) });
}

/** Asked for once a person was named (`person` not empty). */
export function useProPaymentsOfPerson(userId: string, person: string) {
  return useQuery({
    queryKey: proRefundKeys.person(userId, person),
    queryFn: ({ signal }) => listProPaymentsOfPerson(person, signal),
    enabled: person !== '',
    // A person nobody has is an answer, not a failure to retry.
    retry: false,
  });
}
