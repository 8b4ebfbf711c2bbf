import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { routes } from '../../shared/routes';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';

const suite = apiSuite();

/** A shop of the user's, as registering one leaves it, billing `subscribers` people now. */
async function giveShop(user: SignedInUser, shopName: string, subscribers: number): Promise<void> {
  const db = getDb();
  const merchantAccountId = randomUUID();
  const now = new Date().toISOString();
  await db.entities.merchantAccount
    .create({
      merchantAccountId,
      ownerId: user.userId,
      handle: `shop-${merchantAccountId.slice(0, 8)}`,
      shopName,
      currency: 'EUR',
      createdAt: now,
      updatedAt: now,
    })
    .go();
  await db.entities.merchantOwner.create({ ownerId: user.userId, merchantAccountId }).go();
  await db.entities.storeFigure
    .create({ merchantAccountId, scope: shopScope, period: 'total', activeSubscriptions: subscribers, pastDueSubscriptions: 0 })
    .go();
}

describe('deleting the account of a shop that bills subscribers', () => {
  it('is refused with what to do first, keeps the account', async () => {
    // Prepare
    const me = await suite.api.signIn('busy-shop');
    await giveShop(me, 'Busy Corner', 2);

    // Act
    const refused = await suite.api.call(routes.deleteAccount, { as: me });
    const still = await suite.api.call(routes.getMe, { as: me });

    // Assess
    expectError(refused, 409);
    expect(refused.text).toContain('SHOP_HAS_SUBSCRIBERS');
    expect(refused.text).toContain('Busy Corner');
    expect(refused.text).toContain('2 subscribers');
    expectOk(still);
  });
});
