import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import type { UploadingFile } from '../../shared/schemas/transfers';
import type { GradeView } from '../../shared/schemas/merchant';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';
import { apiSuite } from '../support/api-suite';
import { mailsTo } from '../support/mail';
import { addGrade, addProduct, expectMessage, openShop, type Shop } from '../support/penpay';
import { patternedBytes, postUpload } from '../support/transfers';

const suite = apiSuite();

/** A file the merchant attaches to a grade: created on the grade, sent straight to S3, finalized by the file routes. */
async function attachFile(shop: Shop, grade: GradeView, name: string, bytes: Buffer, type = 'application/pdf') {
  const created = await suite.api.call(routes.createGradeFiles, {
    params: { productStockGradeId: grade.id },
    body: { files: [{ name, size: bytes.length, type }] },
    as: shop.owner,
  });
  expectOk(created, 201);
  const uploading = created.body.files[0] as UploadingFile;
  const sent = await postUpload(uploading, bytes, type);
  expect(sent.status, await sent.clone().text()).toBeLessThan(300);
  const finalized = await suite.api.call(routes.finalizeBRecord, { params: { id: uploading.file.id }, as: shop.owner });
  expectOk(finalized);
  expect(finalized.body.file).toMatchObject({ purpose: 'product', status: 'ready' });
  return uploading.file.id;
}

async function buy(customer: SignedInUser, shop: Shop, grade: GradeView): Promise<string> {
  expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: grade.id, quantity: 1 }, as: customer }));
  const cart = await suite.api.call(routes.getCartInvoice, { query: { merchantAccountId: shop.merchant.id }, as: customer });
  expectOk(cart);
  const invoiceId = cart.body.invoice?.id;
  if (!invoiceId) throw new Error('The cart has no invoice');
  const paid = await suite.api.call(routes.fulfillStoreInvoice, {
    params: { invoiceId },
    body: { paymentMethodNonce: 'fake-valid-visa-nonce' },
    as: customer,
  });
  expectOk(paid);
  return invoiceId;
}

const download = (customer: SignedInUser, invoiceId: string, fileId: string) =>
  suite.api.call(routes.downloadOrderFile, { params: { invoiceId, fileId }, as: customer });

async function ordersOf(customer: SignedInUser) {
  const answer = await suite.api.call(routes.listMyOrders, { as: customer });
  expectOk(answer);
  return answer.body.items;
}

describe('a one-time grade that delivers a file', () => {
  const bytes = patternedBytes(40_000, 3);
  let shop: Shop;
  let grade: GradeView;
  let buyer: SignedInUser;
  let fileId: string;
  let invoiceId: string;

  beforeAll(async () => {
    // Prepare
    shop = await openShop(suite, 'ebooks');
    const product = await addProduct(suite, shop, 'Cookbook');
    grade = await addGrade(suite, shop, product, 'PDF', 1_200);
    fileId = await attachFile(shop, grade, 'cookbook.pdf', bytes);
    expectOk(
      await suite.api.call(routes.updateGradeDownloads, {
        params: { productStockGradeId: grade.id },
        body: { downloadsPerPurchase: 3 },
        as: shop.owner,
      }),
    );
    buyer = await suite.api.signIn('ebook-buyer');

    // Act
    invoiceId = await buy(buyer, shop, grade);
  });

  it('lists the file on the merchant’s grade with the downloads each purchase gets', async () => {
    // Act
    const listed = await suite.api.call(routes.listGradeFiles, { params: { productStockGradeId: grade.id }, as: shop.owner });

    // Assess
    expectOk(listed);
    expect(listed.body.downloadsPerPurchase).toBe(3);
    expect(listed.body.items.map((file) => [file.name, file.status])).toEqual([['cookbook.pdf', 'ready']]);
  });

  it('shows the file on the buyer’s order and in the receipt, which links to the orders page, not to the file', async () => {
    // Act
    const [orders, receipts] = await Promise.all([ordersOf(buyer), mailsTo(suite.runtime.mailDir, buyer.email)]);

    // Assess
    expect(orders[0]?.downloads).toEqual([
      expect.objectContaining({ fileId, name: 'cookbook.pdf', downloadLimit: 3, downloadsLeft: 3, access: 'available' }),
    ]);
    expect(receipts[0]?.text).toContain('cookbook.pdf');
    expect(receipts[0]?.text).toContain('/store/orders');
    expect(receipts[0]?.text).not.toMatch(/X-Amz-Signature/i);
  });

  it('gives the buyer a five-minute link that downloads the bytes the merchant uploaded, and counts it', async () => {
    // Act
    const answer = await download(buyer, invoiceId, fileId);

    // Assess
    expectOk(answer);
    expect(answer.body).toMatchObject({ name: 'cookbook.pdf', size: bytes.length, downloadsLeft: 2 });
    expect(Date.parse(answer.body.expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
    const fetched = await fetch(answer.body.url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await ordersOf(buyer))[0]?.downloads[0]?.downloadsLeft).toBe(2);
  });

  it('answers 404 to a customer who did not buy it and to another merchant, as for unknown ids', async () => {
    // Prepare
    const [stranger, rival] = await Promise.all([suite.api.signIn('not-a-buyer'), openShop(suite, 'rival')]);

    // Act
    const answers = await Promise.all([
      download(stranger, invoiceId, fileId),
      download(rival.owner, invoiceId, fileId),
      download(buyer, invoiceId, 'unknown-file-0123456789'),
      download(buyer, 'unknown-invoice-0123456789', fileId),
      suite.api.call(routes.downloadFile, { params: { id: fileId }, query: { disposition: 'attachment' }, as: stranger }),
      suite.api.call(routes.listGradeFiles, { params: { productStockGradeId: grade.id }, as: rival.owner }),
      suite.api.call(routes.removeGradeFile, { params: { productStockGradeId: grade.id, fileId }, as: rival.owner }),
      suite.api.call(routes.createGradeFiles, {
        params: { productStockGradeId: grade.id },
        body: { files: [{ name: 'x.pdf', size: 10, type: 'application/pdf' }] },
        as: rival.owner,
      }),
    ]);

    // Assess
    for (const answer of answers) expectError(answer, 404);
  });

  it('refuses downloads per purchase outside 1 to 100 with a clear message', async () => {
    // Act
    const answer = await suite.api.call(routes.updateGradeDownloads, {
      params: { productStockGradeId: grade.id },
      body: { downloadsPerPurchase: 0 },
      as: shop.owner,
    });

    // Assess
    expectError(answer, 400);
    expect(JSON.stringify(answer.body)).toContain('at least 1 download');
  });

  it('removes the file at the merchant’s asking, with its bytes: gone from the grade and from the buyer’s order', async () => {
    // Prepare: a link the buyer got before the removal.
    const link = await download(buyer, invoiceId, fileId);
    expectOk(link);

    // Act
    const removed = await suite.api.call(routes.removeGradeFile, {
      params: { productStockGradeId: grade.id, fileId },
      as: shop.owner,
    });
    const listed = await suite.api.call(routes.listGradeFiles, { params: { productStockGradeId: grade.id }, as: shop.owner });
    const [orders, afterwards] = await Promise.all([ordersOf(buyer), download(buyer, invoiceId, fileId)]);

    // Assess
    expectOk(removed);
    expect(removed.body.file).toMatchObject({ id: fileId, name: 'cookbook.pdf', purpose: 'product' });
    expectOk(listed);
    expect(listed.body.items).toEqual([]);
    expect(orders[0]?.downloads).toEqual([]);
    expectError(afterwards, 404);
    expect((await fetch(link.body.url)).status).toBe(404);
  });
});

describe('the download limit', () => {
  it('holds under parallel downloads: exactly the limit succeed, the rest are 410 with why', async () => {
    // Prepare
    const shop = await openShop(suite, 'fonts');
    const grade = await addGrade(suite, shop, await addProduct(suite, shop, 'Typeface'), 'Desktop', 2_000);
    const fileId = await attachFile(shop, grade, 'typeface.zip', patternedBytes(2_000, 5), 'application/zip');
    expectOk(
      await suite.api.call(routes.updateGradeDownloads, {
        params: { productStockGradeId: grade.id },
        body: { downloadsPerPurchase: 4 },
        as: shop.owner,
      }),
    );
    const buyer = await suite.api.signIn('font-buyer');
    const invoiceId = await buy(buyer, shop, grade);

    // Act
    const answers = await Promise.all(Array.from({ length: 12 }, () => download(buyer, invoiceId, fileId)));

    // Assess
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => answer.status)).toEqual(Array(8).fill(410));
    expectMessage(refused[0]!, /used all 4 downloads of typeface\.zip/);
    expect((await ordersOf(buyer))[0]?.downloads[0]).toMatchObject({ downloadsLeft: 0, access: 'used-up' });
  });
});

describe('a refund', () => {
  it('ends access to the files of the refunded purchase: 410 saying it was refunded', async () => {
    // Prepare
    const shop = await openShop(suite, 'samples');
    const product = await addProduct(suite, shop, 'Drum kit');
    const [full, partial] = await Promise.all([
      addGrade(suite, shop, product, 'Full', 3_000),
      addGrade(suite, shop, product, 'Lite', 1_000),
    ]);
    const [fullFile, partialFile] = await Promise.all([
      attachFile(shop, full, 'kit-full.zip', patternedBytes(1_000, 1), 'application/zip'),
      attachFile(shop, partial, 'kit-lite.zip', patternedBytes(1_000, 2), 'application/zip'),
    ]);
    const buyer = await suite.api.signIn('sample-buyer');
    expectOk(await suite.api.call(routes.addCartItem, { body: { productStockGradeId: full.id, quantity: 1 }, as: buyer }));
    const invoiceId = await buy(buyer, shop, partial);
    expectOk(await download(buyer, invoiceId, fullFile));
    // The refunds branch writes these; here they are set as a refund of the Lite line would.
    await getDb()
      .entities.storeOrder.patch({ invoiceId })
      .set({ refundedMinor: 1_000, refundedGradeIds: [partial.id] })
      .go();

    // Act
    const [refundedLine, keptLine] = await Promise.all([
      download(buyer, invoiceId, partialFile),
      download(buyer, invoiceId, fullFile),
    ]);
    await getDb().entities.storeOrder.patch({ invoiceId }).set({ refundedMinor: 4_000 }).go();
    const afterFullRefund = await download(buyer, invoiceId, fullFile);

    // Assess
    expectError(refundedLine, 410);
    expectMessage(refundedLine, /refunded, so kit-lite\.zip can no longer be downloaded/);
    expectOk(keptLine);
    expectError(afterFullRefund, 410);
    expect((await ordersOf(buyer))[0]?.downloads.map((file) => file.access)).toEqual(['refunded', 'refunded']);
  });
});

describe('a subscription grade', () => {
  it('delivers its files while the subscription gives entitlement, and not once it ended: 403 saying so', async () => {
    // Prepare
    const shop = await openShop(suite, 'patterns');
    const grade = await addGrade(suite, shop, await addProduct(suite, shop, 'Pattern club'), 'Monthly', 900, { plan: 'monthly' });
    const fileId = await attachFile(shop, grade, 'pattern.pdf', patternedBytes(3_000, 9));
    const buyer = await suite.api.signIn('pattern-member');
    const invoiceId = await buy(buyer, shop, grade);

    // Act
    const whileActive = await download(buyer, invoiceId, fileId);
    const subscriptionId = `s_${invoiceId}_1`;
    await getDb()
      .entities.subscription.patch({ subscriptionId })
      .set({ status: 'Past Due', pastDueSince: new Date(Date.now() - 86_400_000).toISOString() })
      .go();
    const inGrace = await download(buyer, invoiceId, fileId);
    await getDb()
      .entities.subscription.patch({ subscriptionId })
      .set({ status: 'Past Due', pastDueSince: new Date(Date.now() - 30 * 86_400_000).toISOString() })
      .go();
    const afterGrace = await download(buyer, invoiceId, fileId);

    // Assess
    expectOk(whileActive);
    expectOk(inGrace);
    expectError(afterGrace, 403);
    expectMessage(afterGrace, /subscription has ended/);
    expect((await ordersOf(buyer))[0]?.downloads[0]?.access).toBe('subscription-ended');
  });
});
