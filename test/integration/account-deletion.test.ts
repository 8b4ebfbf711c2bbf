import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { routes } from '../../shared/routes';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { subscribeToPro } from '../support/payments';

const suite = apiSuite();

const SUBJECT = 'Your TopPubs account was deleted';

const deletionMailsTo = async (address: string) =>
  (await mailsTo(suite.runtime.mailDir, address)).filter((mail) => mail.headers.subject === SUBJECT);

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

describe('the confirmation of a deleted account', () => {
  it('is emailed once, to the address the account had, saying what went and what stayed, with no link', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-mail');

    // Act: deleted, then the same request again (a retry), which finds no account.
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const retried = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expectError(retried, 401);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.text ?? '';
    expect(text).toContain(`@${me.username} was deleted`);
    expect(text).toContain('Deleted:');
    expect(text).toContain('every session');
    expect(text).toContain('Kept:');
    expect(text).not.toContain('Canceled');
    expect(text).not.toContain('shop');
    expect(`${text}${mails[0]?.html ?? ''}`).not.toMatch(/https?:\/\//);
  });

  it('names the Pro plan it canceled, and says paid time is not refunded', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-pro');
    await subscribeToPro(suite.api, me);

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('Canceled, so nothing more will be charged: the TopPubs Pro plan.');
    expect(mails[0]?.text).toContain('Time already paid for is not refunded.');
  });

  it('says the shop stays when it bills nobody', async () => {
    // Prepare
    const me = await suite.api.signIn('deleted-shop');
    await giveShop(me, 'Quiet Corner', 0);

    // Act
    const deleted = await suite.api.call(routes.deleteAccount, { as: me });
    const mails = await deletionMailsTo(me.email);

    // Assess
    expectOk(deleted);
    expect(mails[0]?.text).toContain('Your shop "Quiet Corner" was not deleted with your account');
  });
});

describe('deleting the account of a shop that bills subscribers', () => {
  it('is refused with what to do first, keeps the account and sends no confirmation', async () => {
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
    expect(await deletionMailsTo(me.email)).toHaveLength(0);
  });
});
