import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';

const CONTACTS_SHOWN = 20;
/** The most recent contacts searched for a prefix: autocomplete wants the people one sends to often. */
const CONTACTS_SEARCHED = 500;

export const handler = createHandler(transferRoutes.listContacts, async ({ query, caller }) => {
  const db = getDb();
  const prefix = query.q.trim().toLowerCase();
  const { data } = await db.entities.transferContact.query
    .recent({ ownerId: caller.userId })
    .go({ order: 'desc', limit: prefix ? CONTACTS_SEARCHED : CONTACTS_SHOWN });
  const matches = prefix
    ? data.filter(
        (contact) =>
          contact.email.startsWith(prefix) ||
          (contact.name ?? '')
            .toLowerCase()
            .split(/\s+/)
            .some((word) => word.startsWith(prefix)),
      )
    : data;
  return {
    contacts: matches
      .slice(0, CONTACTS_SHOWN)
      .map((contact) => ({ email: contact.email, name: contact.name ?? null, lastSentAt: contact.lastSentAt })),
  };
});
