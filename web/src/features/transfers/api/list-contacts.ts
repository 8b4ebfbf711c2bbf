import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const listContactsEndpoint = endpoint<typeof routes.listContacts>('GET', '/api/i/transfer/transfers/contacts');

/** The people the caller has sent to, most recent first; those whose address or name starts with `q`. */
export function listContacts(q: string, signal?: AbortSignal) {
  return listContactsEndpoint({ query: q ? { q } : {}, ...(signal ? { signal } : {}) });
}

export function contactsQueryOptions(userId: string, q: string) {
  return queryOptions({
    queryKey: transferKeys.contacts(userId, q),
    queryFn: ({ signal }) => listContacts(q, signal),
    staleTime: 60_000,
  });
}

/** Suggestions for the recipient field; the previous ones stay while the next arrive. */
export function useContacts(userId: string | null, q: string, enabled = true) {
  return useQuery({
    ...contactsQueryOptions(userId ?? '', q),
    enabled: enabled && Boolean(userId),
    placeholderData: keepPreviousData,
  });
}
