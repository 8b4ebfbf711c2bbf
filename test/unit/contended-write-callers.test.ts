import { ConditionalCheckFailedException, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTENDED_WRITE_POLICY, LostRace, TooBusy } from '../../functions/lib/contended-writes';
import type { MerchantAccountItem } from '../../functions/lib/db/entities/merchant-account';
import { shelfKeys, type ProductStockItem } from '../../functions/lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../functions/lib/db/entities/product-stock-grade';
import type { StoredFileItem } from '../../functions/lib/db/entities/stored-file';
import type { SubscriptionItem } from '../../functions/lib/db/entities/subscription';
import type { TransferItem } from '../../functions/lib/db/entities/transfer';
import { createDb } from '../../functions/lib/db/service';
import { HttpError } from '../../functions/lib/errors';
import type { UserCaller } from '../../functions/lib/http/caller';
import type { GatewaySubscription } from '../../functions/lib/payments/gateway';
import { countSubscriptionChange } from '../../functions/lib/payments/subscription-counts';
import { gatewayVersionOf, syncSubscription } from '../../functions/lib/payments/subscription-sync';
import { addToCart, cartItemIdFor } from '../../functions/penpay/lib/cart';
import { storeGatewayConnection } from '../../functions/penpay/lib/gateway-connection';
import { changeGrade, changeProduct, registerMerchant } from '../../functions/penpay/lib/merchant-writes';
import { recordStoreCharge, type StoreCharge } from '../../functions/penpay/lib/sales-ledger';
import { encodeManifest } from '../../functions/transfers/lib/manifest';
import { addMember } from '../../functions/transfers/lib/recipients';
import { castVote } from '../../functions/transfers/lib/votes';

/**
 * The optimistic writes of transfers, the shop and payments, each retried under the one policy
 * (retryContendedWrite): a first write that loses its race is retried on what is there now, and
 * one that loses every time gives up with its own error. The table is a mock: reads answer from
 * `rows`, and each test decides how the writes fare.
 */
const TABLE = 'contended-callers-unit';
const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => dynamo.restore());
const db = createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), TABLE);

const NOW = new Date('2026-12-07T10:00:00.000Z');
const AT = NOW.toISOString();
const EARLIER = '2026-12-01T09:00:00.000Z';
const EXPIRES_AT = 1_900_000_000;
const ATTEMPTS = CONTENDED_WRITE_POLICY.attempts;

type Row = Record<string, unknown>;
/** What the table holds, by key, as DynamoDB answers it (keys and ElectroDB's markers included). */
const rows = new Map<string, Row>();
const keyOf = (key: Row | undefined) => `${String(key?.pk)}|${String(key?.sk)}`;
/** An item put in the table, from the params ElectroDB builds for putting it. */
const hold = (params: unknown): Row => {
  const { Item } = params as { Item: Row };
  rows.set(keyOf(Item), Item);
  return Item;
};

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
/** A transaction cancelled with `code` for the item at `position`, and None for the others. */
const cancelled = (input: TransactWriteCommandInput, position: number, code: string) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${code}]`,
    $metadata: {},
    CancellationReasons: (input.TransactItems ?? []).map((_, index) => ({ Code: index === position ? code : 'None' })),
  });
/** A transaction that only collided with another one in flight. */
const collided = (input: TransactWriteCommandInput) => cancelled(input, 0, 'TransactionConflict');

/** No pause between attempts (full jitter drawn at its lowest), so the policy's attempts run at once. */
const withoutPauses = () => vi.spyOn(Math, 'random').mockReturnValue(0);
const caught = (work: Promise<unknown>) => work.then(() => new Error('expected a failure'), (error: unknown) => error);
/** A write's params as they go on the wire (JSON): what two attempts are compared by. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
const transactions = () => dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
const updatesOf = (sk: string) =>
  dynamo
    .commandCalls(UpdateCommand)
    .map((call) => call.args[0].input)
    .filter((input) => String(input.Key?.sk).startsWith(sk));

beforeEach(() => {
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: rows.get(keyOf(input.Key)) }));
  dynamo.on(QueryCommand).resolves({ Items: [] });
});

afterEach(() => {
  dynamo.reset();
  rows.clear();
  vi.restoreAllMocks();
});

describe('a vote on a file of a package (castVote)', () => {
  const recipient: UserCaller = {
    kind: 'user',
    userId: 'usr-rita',
    sessionId: 'ses-rita',
    isSuperUser: false,
    verifiedEmail: 'rita@example.com',
  };
  const file: StoredFileItem = {
    fileId: 'file-1',
    purpose: 'transfer',
    ownerId: 'usr-sam',
    folder: 'transfer:tr-1',
    name: 'report.pdf',
    size: 1_000,
    contentType: 'application/pdf',
    status: 'ready',
    uploadMethod: 'post',
    objectKey: 'transfers/tr-1/file-1',
    createdAt: EARLIER,
  };

  /** A sent package of one file, received by Rita; each test its own transfer (the tally is cached by transfer). */
  function sentPackage(transferId: string) {
    hold(
      db.entities.transfer
        .put({
          transferId,
          ownerId: 'usr-sam',
          title: 'Report',
          message: '',
          status: 'sent',
          planId: 'free',
          maxTransferBytes: 1_000_000,
          maxRecipients: 5,
          fileCount: 1,
          totalBytes: 1_000,
          recipientCount: 1,
          createdAt: EARLIER,
          finalizedAt: EARLIER,
          availableUntil: '2026-12-31T00:00:00.000Z',
          expiresAt: EXPIRES_AT,
        })
        .params(),
    );
    hold(
      db.entities.transferMember
        .put({ transferId, email: 'rita@example.com', addedAt: EARLIER, downloads: [], expiresAt: EXPIRES_AT })
        .params(),
    );
    hold(
      db.entities.transferManifest
        .put({ transferId, fileCount: 1, files: encodeManifest([{ ...file, transferId }]), expiresAt: EXPIRES_AT })
        .params(),
    );
    return { transferId, fileId: 'file-1', caller: recipient, vote: 'like' as const, status: 'on' as const, now: NOW };
  }

  it('reads again and casts the vote when its first transaction collided with another write', async () => {
    // Prepare
    const vote = sentPackage('tr-vote-retried');
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw collided(input);
      })
      .resolves({});

    // Act
    const answer = await castVote(db, vote);

    // Assess
    expect(answer).toMatchObject({ id: 'file-1', myVote: 'like' });
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    expect(plain(second)).toEqual(plain(first));
    expect(second?.TransactItems?.[0]?.Put?.Item).toMatchObject({ transferId: 'tr-vote-retried', vote: 'like' });
  });

  it('ends at once with 404 when the package was deleted meanwhile (the tally refused)', async () => {
    // Prepare
    const vote = sentPackage('tr-vote-deleted');
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw cancelled(input, 1, 'ConditionalCheckFailed');
    });

    // Act
    const error = await caught(castVote(db, vote));

    // Assess
    expect(error).toMatchObject({ statusCode: 404, message: 'There is no such transfer, or it was not sent to you.' });
    expect(transactions()).toHaveLength(1);
  });

  it('gives up with TooBusy (503) when every attempt collides', async () => {
    // Prepare
    withoutPauses();
    const vote = sentPackage('tr-vote-busy');
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(castVote(db, vote));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('voting on this file') });
    expect((error as TooBusy).cause).toBeInstanceOf(LostRace);
    expect(transactions()).toHaveLength(ATTEMPTS);
  });
});

describe('adding a recipient to a transfer (addMember)', () => {
  const draft: TransferItem = {
    transferId: 'tr-draft',
    ownerId: 'usr-sam',
    title: 'Photos',
    message: '',
    status: 'draft',
    planId: 'free',
    maxTransferBytes: 1_000_000,
    maxRecipients: 5,
    fileCount: 0,
    totalBytes: 0,
    recipientCount: 0,
    createdAt: EARLIER,
    availableUntil: '2026-12-31T00:00:00.000Z',
    expiresAt: EXPIRES_AT,
  };
  const transferKey = keyOf(db.entities.transfer.get({ transferId: draft.transferId }).params<{ Key: Row }>().Key);

  it('reads the transfer again and adds on its new count when another recipient was added meanwhile', async () => {
    // Prepare
    hold(db.entities.transfer.put(draft).params());
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        // Another recipient got in first: the count the write was conditioned on moved.
        rows.set(transferKey, { ...rows.get(transferKey), recipientCount: 1 });
        throw cancelled(input, 1, 'ConditionalCheckFailed');
      })
      .resolves({});

    // Act
    const { member, added } = await addMember(db, draft, 'rita@example.com', NOW);

    // Assess
    expect(added).toBe(true);
    expect(member).toMatchObject({ transferId: 'tr-draft', email: 'rita@example.com', addedAt: AT });
    // The transfer's count, as each attempt read it, is what its write was conditioned on.
    const counts = transactions().map((input) => input.TransactItems?.[1]?.Update);
    expect(counts.map((update) => update?.ConditionExpression)).toEqual([
      expect.stringContaining('#recipientCount = :recipientCount0'),
      expect.stringContaining('#recipientCount = :recipientCount0'),
    ]);
    expect(counts.map((update) => update?.ExpressionAttributeValues?.[':recipientCount0'])).toEqual([0, 1]);
  });

  it('gives up with TooBusy (503) when every attempt collides', async () => {
    // Prepare
    withoutPauses();
    hold(db.entities.transfer.put(draft).params());
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(addMember(db, draft, 'rita@example.com', NOW));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('adding recipients to this transfer') });
    expect(transactions()).toHaveLength(ATTEMPTS);
  });
});

describe("recording a charge in a shop's sales ledger (recordStoreCharge)", () => {
  const charge: StoreCharge = {
    merchantAccountId: 'mer-1',
    transactionId: 'txn-1',
    kind: 'order',
    opensOrderIn: new Set(['shop']),
    customer: { id: 'usr-cleo', name: 'Cleo', email: 'cleo@example.com' },
    paidAt: AT,
    currency: 'EUR',
    lines: [{ productStockId: 'prd-1', productStockGradeId: 'grd-1', description: 'Mug — Large', units: 2, amountMinor: 3_000 }],
  };

  it('sends the same transaction again when it collided with another sale of the shop, and records the charge once', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw cancelled(input, 3, 'TransactionConflict');
      })
      .resolves({});

    // Act
    const recorded = await recordStoreCharge(db, charge);

    // Assess
    expect(recorded).toBe(true);
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    // All or nothing, and the same again: the sale row's not-exists condition still guards against counting twice.
    expect(plain(second)).toEqual(plain(first));
    expect(second?.TransactItems?.[0]?.Put?.ConditionExpression).toContain('attribute_not_exists');
  });

  it('gives up with a server error, not TooBusy, when every attempt collides: the customer was charged already', async () => {
    // Prepare
    withoutPauses();
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(recordStoreCharge(db, charge));

    // Assess
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'Charge txn-1 of mer-1 could not be recorded' });
    expect((error as Error).cause).toBeInstanceOf(LostRace);
    expect(transactions()).toHaveLength(ATTEMPTS);
  });
});

const merchant: MerchantAccountItem = {
  merchantAccountId: 'mer-1',
  ownerId: 'usr-mia',
  handle: 'mias-mugs',
  shopName: "Mia's mugs",
  description: '',
  currency: 'EUR',
  gateway: { environment: 'sandbox', merchantId: 'bt-mia', connectedAt: EARLIER },
  createdAt: EARLIER,
  updatedAt: EARLIER,
};
const product: ProductStockItem = {
  productStockId: 'prd-1',
  merchantAccountId: 'mer-1',
  title: 'Mug',
  description: '',
  images: [],
  display: { featured: false, position: 0 },
  visibility: 'public',
  stocked: true,
  ...shelfKeys({ stocked: true, visibility: 'public', featured: false, position: 0 }),
  gradeCount: 1,
  currency: 'EUR',
  createdAt: EARLIER,
  updatedAt: EARLIER,
};
const grade: ProductStockGradeItem = {
  productStockGradeId: 'grd-1',
  productStockId: 'prd-1',
  merchantAccountId: 'mer-1',
  name: 'Large',
  description: '',
  display: { highlighted: false, position: 0 },
  visibility: 'public',
  stocked: true,
  ...shelfKeys({ stocked: true, visibility: 'public', position: 0 }),
  priceMinor: 1_500,
  currency: 'EUR',
  createdAt: EARLIER,
  updatedAt: EARLIER,
};
const openShop = () => {
  hold(db.entities.merchantAccount.put(merchant).params());
  hold(db.entities.productStock.put(product).params());
  hold(db.entities.productStockGrade.put(grade).params());
};

describe("adding to one's cart (addToCart)", () => {
  const cartLine = (quantity: number) =>
    db.entities.cartItem
      .put({
        customerId: 'usr-cleo',
        merchantAccountId: 'mer-1',
        cartItemId: cartItemIdFor('usr-cleo', 'grd-1'),
        productStockId: 'prd-1',
        productStockGradeId: 'grd-1',
        quantity,
        addedUnitPriceMinor: 1_500,
        currency: 'EUR',
        addedAt: EARLIER,
      })
      .params<{ Item: Row }>().Item;

  it('adds to the line another tab created meanwhile, instead of failing', async () => {
    // Prepare
    openShop();
    dynamo.on(PutCommand).callsFakeOnce(() => {
      // The other tab's add of the same grade made the line first.
      hold({ Item: cartLine(1) });
      throw conditionFailed();
    });
    dynamo.on(UpdateCommand).callsFake((input: UpdateCommandInput) => ({ Attributes: { ...rows.get(keyOf(input.Key)), quantity: 3 } }));

    // Act
    const line = await addToCart(db, 'usr-cleo', { productStockGradeId: 'grd-1', quantity: 2 }, NOW);

    // Assess
    expect(line).toMatchObject({ productStockGradeId: 'grd-1', quantity: 3 });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(1);
    const [update] = updatesOf('$cartItem_1');
    expect(updatesOf('$cartItem_1')).toHaveLength(1);
    // Two more, on condition that the quantity is still the one the other tab left.
    expect(update?.ConditionExpression).toContain('#quantity = :quantity0');
    expect(update?.ExpressionAttributeValues).toMatchObject({ ':quantity0': 1, ':quantity_u0': 2 });
  });

  it("gives up with 409 when the line's quantity changes under every attempt (other tabs)", async () => {
    // Prepare
    withoutPauses();
    openShop();
    hold({ Item: cartLine(1) });
    dynamo.on(UpdateCommand).callsFake(() => {
      throw conditionFailed();
    });

    // Act
    const error = await caught(addToCart(db, 'usr-cleo', { productStockGradeId: 'grd-1', quantity: 2 }, NOW));

    // Assess
    expect(error).toMatchObject({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Mug — Large is being added to your cart in another tab right now: look at your cart again.',
    });
    expect(updatesOf('$cartItem_1')).toHaveLength(ATTEMPTS);
  });
});

describe("a merchant's writes to their own shop", () => {
  const registration = { handle: 'mias-mugs', shopName: "Mia's mugs", description: '', currency: 'EUR' as const };

  it('registers a shop whose transaction collided with another, as it was (registerMerchant)', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw collided(input);
      })
      .resolves({});

    // Act
    const registered = await registerMerchant(db, 'usr-mia', registration, NOW);

    // Assess
    expect(registered).toMatchObject({ ownerId: 'usr-mia', handle: 'mias-mugs' });
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    expect(plain(second)).toEqual(plain(first));
  });

  it('gives up registering with TooBusy (503) when every attempt collides', async () => {
    // Prepare
    withoutPauses();
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(registerMerchant(db, 'usr-mia', registration, NOW));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('registering shops') });
    expect(transactions()).toHaveLength(ATTEMPTS);
  });

  it('changes a product again on what another write left, when that write got there first (changeProduct)', async () => {
    // Prepare
    openShop();
    const productKey = keyOf(db.entities.productStock.get({ productStockId: 'prd-1' }).params<{ Key: Row }>().Key);
    const otherWriteAt = '2026-12-07T09:59:00.000Z';
    dynamo
      .on(UpdateCommand)
      .callsFakeOnce(() => {
        rows.set(productKey, { ...rows.get(productKey), description: 'Hand made', updatedAt: otherWriteAt });
        throw conditionFailed();
      })
      .resolves({});

    // Act
    const changed = await changeProduct(db, merchant, 'prd-1', NOW, () => ({ title: 'Big mug' }));

    // Assess
    expect(changed).toMatchObject({ title: 'Big mug', description: 'Hand made', updatedAt: AT });
    const writes = updatesOf('$productstock_1');
    expect(writes).toHaveLength(2);
    // Each on condition that the product is still as that attempt read it.
    expect(writes.map((write) => write.ConditionExpression)).toEqual([
      expect.stringContaining('#updatedAt = :updatedAt0'),
      expect.stringContaining('#updatedAt = :updatedAt0'),
    ]);
    expect(writes.map((write) => write.ExpressionAttributeValues?.[':updatedAt0'])).toEqual([EARLIER, otherWriteAt]);
  });

  it('gives up changing a product with TooBusy (503) when every attempt loses', async () => {
    // Prepare
    withoutPauses();
    openShop();
    dynamo.on(UpdateCommand).callsFake(() => {
      throw conditionFailed();
    });

    // Act
    const error = await caught(changeProduct(db, merchant, 'prd-1', NOW, () => ({ title: 'Big mug' })));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('changing this product') });
    expect(updatesOf('$productstock_1')).toHaveLength(ATTEMPTS);
  });

  it("changes a grade on the second attempt, then its product's summary once (changeGrade)", async () => {
    // Prepare
    openShop();
    const gradeKey = keyOf(db.entities.productStockGrade.get({ productStockGradeId: 'grd-1' }).params<{ Key: Row }>().Key);
    let gradeWrites = 0;
    dynamo.on(UpdateCommand).callsFake((input: UpdateCommandInput) => {
      if (keyOf(input.Key) === gradeKey && (gradeWrites += 1) === 1) throw conditionFailed();
      return {};
    });

    // Act
    const changed = await changeGrade(db, merchant, { productStockGradeId: 'grd-1' }, NOW, () => ({ priceMinor: 1_800 }));

    // Assess
    expect(changed).toMatchObject({ productStockGradeId: 'grd-1', priceMinor: 1_800 });
    expect(updatesOf('$productstockgrade_1')).toHaveLength(2);
    const summaries = updatesOf('$productstock_1');
    expect(summaries).toHaveLength(1);
    // The product's summary has the grade as written: its one grade, at the new price.
    expect(summaries[0]?.ExpressionAttributeValues).toMatchObject({ ':gradeCount_u0': 1, ':lowestPriceMinor_u0': 1_800 });
  });

  it('gives up changing a grade with TooBusy (503) when every attempt loses, and leaves its product alone', async () => {
    // Prepare
    withoutPauses();
    openShop();
    dynamo.on(UpdateCommand).callsFake(() => {
      throw conditionFailed();
    });

    // Act
    const error = await caught(changeGrade(db, merchant, { productStockGradeId: 'grd-1' }, NOW, () => ({ priceMinor: 1_800 })));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('changing this grade') });
    expect(updatesOf('$productstockgrade_1')).toHaveLength(ATTEMPTS);
    expect(updatesOf('$productstock_1')).toHaveLength(0);
  });

  const sealed = {
    algorithm: 'AES-256-GCM' as const,
    keyId: 'local-key',
    encryptedDataKey: 'ZGF0YS1rZXk=',
    iv: 'aXY=',
    tag: 'dGFn',
    ciphertext: 'Y2lwaGVy',
  };

  it('stores a gateway connection whose transaction collided with another write of the shop (storeGatewayConnection)', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw collided(input);
      })
      .resolves({});

    // Act
    const connected = await storeGatewayConnection(db, merchant, { environment: 'sandbox', merchantId: 'bt-new', sealed }, NOW);

    // Assess
    expect(connected.gateway).toEqual({ environment: 'sandbox', merchantId: 'bt-new', connectedAt: AT });
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    expect(plain(second)).toEqual(plain(first));
  });

  it('gives up storing a gateway connection with TooBusy (503) when every attempt collides', async () => {
    // Prepare
    withoutPauses();
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(storeGatewayConnection(db, merchant, { environment: 'sandbox', merchantId: 'bt-new', sealed }, NOW));

    // Assess
    expect(error).toBeInstanceOf(TooBusy);
    expect(error).toMatchObject({ statusCode: 503, message: expect.stringContaining('changing payment settings') });
    expect(transactions()).toHaveLength(ATTEMPTS);
  });
});

describe("a subscription's copy following the gateway (syncSubscription)", () => {
  const copy: SubscriptionItem = {
    subscriptionId: 'sub-1',
    customerId: 'usr-cleo',
    sellerId: 'mer-1',
    productId: 'prd-1',
    priceId: 'grd-1',
    gatewayPlanId: 'plan-monthly',
    invoiceId: 'inv-1',
    status: 'Past Due',
    priceMinor: 1_500,
    currency: 'EUR',
    billingFrequencyMonths: 1,
    failureCount: 1,
    balanceMinor: 1_500,
    paymentMethod: { token: 'card-1', cardType: 'Visa', last4: '1111', expirationDate: '12/2030' },
    gatewayVersion: '2026-12-01T09:00:00.000Z|000001|0',
    createdAt: EARLIER,
    updatedAt: EARLIER,
  };
  const recovered: GatewaySubscription = {
    id: 'sub-1',
    planId: 'plan-monthly',
    status: 'Active',
    price: '15.00',
    currency: 'EUR',
    paymentMethodToken: 'card-1',
    billingPeriodStartDate: '2026-12-07',
    billingPeriodEndDate: '2027-01-06',
    paidThroughDate: '2027-01-06',
    nextBillingDate: '2027-01-07',
    billingFrequency: 1,
    currentBillingCycle: 2,
    failureCount: 0,
    balance: '0.00',
    daysPastDue: 0,
    addOns: [],
    transactions: [],
    updatedAt: AT,
  };
  const subscriptionKey = keyOf(db.entities.subscription.get({ subscriptionId: 'sub-1' }).params<{ Key: Row }>().Key);
  const sync = () => syncSubscription(db, recovered, { now: NOW, previous: copy, recordCharges: async () => [] });
  const slotUpdates = () => updatesOf('$subscriptionSlot_1');

  beforeEach(() => {
    hold(db.entities.subscription.put(copy).params());
    dynamo.on(UpdateCommand).resolves({});
  });

  it('writes the newer state on the second attempt when the first collided, and moves its place once', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw collided(input);
      })
      .resolves({});

    // Act
    const { subscription, changes } = await sync();

    // Assess
    expect(changes).toMatchObject({ applied: true, recovered: true, previousStatus: 'Past Due' });
    expect(subscription).toMatchObject({ status: 'Active', gatewayVersion: gatewayVersionOf(recovered) });
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    // The counts move in the same transaction as the state, so a retry cannot count twice.
    expect(plain(second)).toEqual(plain(first));
    expect(second?.TransactItems).toHaveLength(4);
    expect(slotUpdates()).toHaveLength(1);
  });

  it('writes nothing more when another sync wrote the same state meanwhile', async () => {
    // Prepare
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      rows.set(subscriptionKey, { ...rows.get(subscriptionKey), status: 'Active', gatewayVersion: gatewayVersionOf(recovered) });
      throw cancelled(input, 0, 'ConditionalCheckFailed');
    });

    // Act
    const { subscription, changes } = await sync();

    // Assess
    expect(changes).toMatchObject({ applied: false, recovered: false });
    expect(subscription).toMatchObject({ status: 'Active', gatewayVersion: gatewayVersionOf(recovered) });
    expect(transactions()).toHaveLength(1);
    expect(slotUpdates()).toHaveLength(0);
  });

  it('gives up with a server error, not TooBusy, when every attempt collides: the gateway has changed already', async () => {
    // Prepare
    withoutPauses();
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(sync());

    // Assess
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'The state of subscription sub-1 could not be written' });
    expect((error as Error).cause).toBeInstanceOf(LostRace);
    expect(transactions()).toHaveLength(ATTEMPTS);
    expect(slotUpdates()).toHaveLength(0);
  });
});

describe("a shop's subscription counts (countSubscriptionChange)", () => {
  const subscription = { sellerId: 'mer-1', productId: 'prd-1', priceId: 'grd-1' };

  it('sends the counts again when their transaction collided with another', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .callsFakeOnce((input: TransactWriteCommandInput) => {
        throw collided(input);
      })
      .resolves({});

    // Act
    await countSubscriptionChange(db, subscription, null, 'Active');

    // Assess
    const [first, second] = transactions();
    expect(transactions()).toHaveLength(2);
    expect(plain(second)).toEqual(plain(first));
    expect(second?.TransactItems).toHaveLength(3);
  });

  it('gives up with a server error, not TooBusy, when every attempt collides: the change was applied already', async () => {
    // Prepare
    withoutPauses();
    dynamo.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      throw collided(input);
    });

    // Act
    const error = await caught(countSubscriptionChange(db, subscription, 'Active', 'Canceled'));

    // Assess
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'The subscription counts of mer-1 could not be updated' });
    expect(transactions()).toHaveLength(ATTEMPTS);
  });
});
