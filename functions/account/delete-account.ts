import * as accountRoutes from '../../shared/routes/account';
import { getConfig } from '../lib/config';
import { lostRace, retryContendedWrite } from '../lib/contended-writes';
import type { UserItem } from '../lib/db/entities/user';
import { writeBatch } from '../lib/db/batches';
import { type Db, getDb } from '../lib/db/service';
import { getUser, verifiedEmailOfUser } from '../lib/db/users';
import { HttpError, ServiceUnavailable, Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { cancelSubscriptionsOf, ownShopOf } from '../lib/payments/account-closing';
import { paymentGateway } from '../lib/payments/payment-gateway';
import { clearedSessionCookies, endAllSessions, getSessionByToken } from '../lib/sessions';
import { removeSocialTracesOf } from '../lib/social-removal';
import { confirmAccountDeleted } from './lib/account-deleted-mail';

const config = getConfig();

/** Deleting an account needs a login this recent (sessions are created at login). */
export const RECENT_LOGIN_MS = 15 * 60 * 1000;

export class RecentLoginRequired extends HttpError {
  constructor() {
    super(
      403,
      'RECENT_LOGIN_REQUIRED',
      'For your safety, log in again (within the last 15 minutes) before deleting your account.',
    );
  }
}

/** A shop that still bills subscribers keeps its owner's account: nobody could manage either afterwards. */
export class ShopHasSubscribers extends HttpError {
  constructor(shopName: string, subscriptions: number) {
    super(
      409,
      'SHOP_HAS_SUBSCRIBERS',
      `Your shop "${shopName}" still bills ${subscriptions} subscriber${subscriptions === 1 ? '' : 's'}. Cancel their subscriptions in your shop's Braintree account first, then delete your account.`,
      { subscriptions },
    );
  }
}

/**
 * Deletes the user item and frees its username and email claims in one transaction, which also
 * closes the user's shop (`shopId`): a shop with no owner would stay listed and keep selling, to
 * be managed by nobody, and closing it in the same transaction means no account is deleted with
 * its shop left open, nor a shop closed for an account that stays. Each delete is conditioned on
 * what was read (the user still has that username and email, each claim still belongs to this
 * user), so a username changed meanwhile cannot leave its new claim behind: a failed condition
 * re-reads and tries again. Subscriptions are canceled by then, so giving up does not say that
 * nothing changed. Answers the user as it was deleted, or null when there was none (another
 * request deleted it first).
 */
async function deleteUserAndClaims(db: Db, userId: string, shopId: string | null): Promise<UserItem | null> {
  const giveUp = (cause: unknown) =>
    new ServiceUnavailable('Your account kept changing while we deleted it, so it is still there: please try again.', { cause });
  return retryContendedWrite({ what: 'deleting accounts', giveUp }, async () => {
    const user = await getUser(db, { userId });
    if (!user) return null;
    const claims = await ownedClaims(db, user);
    const closedAt = new Date().toISOString();
    const result = await db.transaction
      .write(({ user: users, identityClaim, merchantAccount }) => [
        users
          .delete({ userId })
          .where((attr, op) =>
            [op.eq(attr.username, user.username), user.email ? op.eq(attr.email, user.email) : op.notExists(attr.email)].join(
              ' AND ',
            ),
          )
          .commit(),
        ...claims.map((claim) =>
          identityClaim
            .delete(claim)
            .where((attr, op) => op.eq(attr.userId, userId))
            .commit(),
        ),
        ...(shopId
          ? [
              merchantAccount
                .patch({ merchantAccountId: shopId })
                .set({ closedAt, updatedAt: closedAt })
                .where((attr, op) => op.eq(attr.ownerId, userId))
                .commit(),
            ]
          : []),
      ])
      .go();
    return result.canceled ? lostRace(result) : user;
  });
}

/** The username and email claims that belong to this user (a claim held by someone else is left alone). */
async function ownedClaims(db: Db, user: UserItem) {
  const wanted = [
    { kind: 'username' as const, value: user.username.toLowerCase() },
    ...(user.email ? [{ kind: 'email' as const, value: user.email.trim().toLowerCase() }] : []),
  ];
  const found = await Promise.all(wanted.map((key) => db.entities.identityClaim.get(key).go({ consistent: true })));
  return wanted.filter((_, index) => found[index]?.data?.userId === user.userId);
}

/** Deletes the blocks this user made (blocks of this user by others name an id nobody has any more: harmless). */
async function deleteBlocksBy(db: Db, userId: string): Promise<void> {
  const { data: blocks } = await db.entities.block.query.byUser({ userId }).go({ pages: 'all' });
  await writeBatch({
    items: blocks.map((block) => ({ userId: block.userId, blockedUserId: block.blockedUserId })),
    send: (keys) => db.entities.block.delete(keys).go(),
    keyOf: (key) => `${key.userId}#${key.blockedUserId}`,
    what: 'blocks',
  });
}

/** Removes the user's links to outside logins (Google), so that account can sign up afresh. */
async function deleteExternalIdentitiesOf(db: Db, userId: string): Promise<void> {
  const { data: identities } = await db.entities.externalIdentity.query.byUser({ userId }).go({ pages: 'all' });
  await Promise.all(
    identities.map((identity) =>
      db.entities.externalIdentity.delete({ issuer: identity.issuer, subject: identity.subject }).go(),
    ),
  );
}

/**
 * Deletes the caller's account: only within 15 minutes of a login, so a stolen or forgotten
 * session cannot destroy an account. The user item and its identity claims go first, in one
 * transaction: from then on every remaining session of the user resolves to nobody (resolveSession
 * needs the user item), the username is free, and the email logs in as a new account with a new id.
 * Then the blocks this user made, its Google links, its follows (with the other people's counts),
 * its notifications and every session are deleted, and a confirmation is mailed to the address
 * the account had. Before any of it, every subscription that still bills is canceled at the
 * payment gateway (no refund), and a shop of the user's that still bills subscribers refuses
 * the deletion (409). A shop that bills nobody closes with the account: no longer shown or sold
 * (its pages answer 404 "closed", carts at it cannot be paid), its records kept.
 *
 * Reports this user made are kept, unchanged: moderators need them, and what they hold of the
 * reporter is an opaque random id that no longer leads to anyone (a new account of the same
 * email gets a new id). Rewriting it to a shared placeholder would merge the reports of different
 * deleted users on one object (the reporter id is the report's sort key) and would need an index
 * by reporter just to find them.
 */
export const handler = createHandler(accountRoutes.deleteAccount, async ({ caller, sessionToken: token }) => {
  const db = getDb();
  const session = token ? await getSessionByToken(db, token) : null;
  if (!session || session.sessionId !== caller.sessionId || session.userId !== caller.userId) throw new Unauthorized();
  if (Date.now() - Date.parse(session.createdAt) > RECENT_LOGIN_MS) throw new RecentLoginRequired();

  // A shop still billing subscribers would be left to nobody: its owner ends those first.
  const shop = await ownShopOf(db, caller.userId);
  if (shop && shop.billingSubscriptions > 0) throw new ShopHasSubscribers(shop.shopName, shop.billingSubscriptions);

  // First, while the account can still be kept: nobody is billed for an account that is gone.
  const canceled = await cancelSubscriptionsOf(db, paymentGateway, caller.userId, new Date());
  const deleted = await deleteUserAndClaims(db, caller.userId, shop?.merchantAccountId ?? null);
  if (!deleted) throw new Unauthorized();
  try {
    await Promise.all([
      deleteBlocksBy(db, caller.userId),
      deleteExternalIdentitiesOf(db, caller.userId),
      removeSocialTracesOf(db, caller.userId),
    ]);
    const endedSessions = await endAllSessions(db, caller.userId);
    logger.info('Deleted an account', { userId: caller.userId, endedSessions, canceledSubscriptions: canceled.length });
  } finally {
    // Only the request whose transaction deleted the user gets here, so the mail goes once, even
    // when the clean-up after the commit failed (a retry would find no account to delete).
    const to = verifiedEmailOfUser(deleted);
    if (to) await confirmAccountDeleted(db, to, { username: deleted.username, canceled, shopName: shop?.shopName ?? null });
  }
  return reply({ deleted: true }, { cookies: clearedSessionCookies({ domain: config.sessionCookieDomain }) });
});
