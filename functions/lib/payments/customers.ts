import type { Db } from '../db/service';
import { requireUser } from '../db/users';

/** The caller as the gateway's customer: our user id is its id (Braintree takes up to 36 characters: a UUID fits). */
export async function gatewayCustomerOf(db: Db, userId: string): Promise<{ id: string; email: string; name?: string }> {
  const user = await requireUser(db, { userId });
  return { id: user.userId, email: user.email ?? '', ...(user.name ? { name: user.name } : {}) };
}
