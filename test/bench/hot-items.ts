/**
 * Benchmark: the three hot items of issue 41, each driven over HTTP on the local runtime (run in
 * this process, DynamoDB Local in memory) at a steady rate, scaled to what a 2-core machine does:
 * - a viral story: readers like it (PUT like/on), each like one transaction on the story's count;
 * - a popular link transfer: visitors download its file (the download counted on the transfer,
 *   under a download limit, in one transaction with the visitor's claim and the log entry);
 * - a merchant's launch: customers pay their carts (the fulfil route records the sale in the
 *   shop's ledger: one transaction ADDing to the shop's, the product's and the grade's day figures).
 * The people, sessions and carts are made before the clock starts (sessions straight into the
 * table; carts through the API). Per case: requests, the final count against the expected one,
 * the route's p50/p99, the retries the contended-write helper took (its process-wide counts),
 * the route's write units per request (the local runtime's ConsumedCapacity tally) and the write
 * units per second the hot item's partition would take in AWS at the issue's real rate. Progress
 * goes to stderr; the result is the last line of stdout, as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBatch } from '../../functions/lib/db/batches';
import { figureDayOf } from '../../functions/penpay/lib/sales-ledger';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import { transferFolder } from '../../functions/lib/db/entities/stored-file';
import { contendedWriteCounts } from '../../functions/lib/contended-writes';
import type { Db } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import { newStoryId } from '../../functions/stories/lib/share-story';
import { siteWrites } from '../../functions/stories/lib/site-stories';
import { addShardedLikes } from '../../functions/stories/lib/story-like-count';
import { encodeManifest } from '../../functions/transfers/lib/manifest';
import { newLinkKey } from '../../functions/transfers/lib/transfer-links';

import { startLocalRuntime } from '../../infra/local/runtime';
import { APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';
import { bulkTableAccess } from './support';

const log = (line: string) => process.stderr.write(`  ${line}\n`);
/** Seconds each case is driven for (BENCH_HOT_SECONDS overrides, for a quicker look). */
const SECONDS = Number(process.env.BENCH_HOT_SECONDS ?? 60);

/**
 * Each case: the issue's real rate, and the rate this machine is driven at (one process holds the
 * runtime, DynamoDB Local's client and the sender, on 2 cores).
 */
const CASES = {
  likes: { realPerSecond: 200, localPerSecond: Number(process.env.BENCH_HOT_LIKES_RATE ?? 15) },
  downloads: { realPerSecond: 5_000 / 600, localPerSecond: Number(process.env.BENCH_HOT_DOWNLOADS_RATE ?? 5_000 / 600) },
  sales: { realPerSecond: 1_000 / 60, localPerSecond: Number(process.env.BENCH_HOT_SALES_RATE ?? 4) },
} as const;

/** One DynamoDB partition's write throughput, in write units a second. */
const PARTITION_WCU_PER_SECOND = 1_000;

const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-hot-items-'));
const runtime = await startLocalRuntime({ port: 0, dataDir, inMemory: true, seedIfEmpty: false, runJobsAtStart: false });

interface Answer {
  status: number;
  ms: number;
}

/** Sends `count` requests, the nth at start + n / rate (not waiting for answers: a steady arrival rate). */
async function atRate(count: number, perSecond: number, send: (index: number) => Promise<number>): Promise<Answer[]> {
  const started = performance.now();
  const pending: Promise<Answer>[] = [];
  for (let index = 0; index < count; index += 1) {
    const due = started + (index * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(
      send(index).then(
        (status) => ({ status, ms: performance.now() - sent }),
        () => ({ status: 0, ms: performance.now() - sent }),
      ),
    );
  }
  return Promise.all(pending);
}

const headers = (token: string) => ({ [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, cookie: `${SESSION_HEADER}=${token}` });

/** `count` people with a session each, written straight to the table: ids `${prefix}-n`. */
async function people(db: Db, prefix: string, count: number): Promise<{ userId: string; token: string }[]> {
  const at = new Date().toISOString();
  const userIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  await writeBatch({
    items: userIds.map((userId) => ({
      userId,
      username: userId,
      email: `${userId}@example.com`,
      emailVerified: true,
      createdAt: at,
      lastLoginAt: at,
    })),
    send: async (items) => db.entities.user.put(items).go(),
    keyOf: (key) => key.userId,
    what: 'bench people',
  });
  const signedIn: { userId: string; token: string }[] = [];
  for (let start = 0; start < userIds.length; start += 16) {
    signedIn.push(
      ...(await Promise.all(
        userIds.slice(start, start + 16).map(async (userId) => ({ userId, token: (await createSession(db, userId)).token })),
      )),
    );
  }
  return signedIn;
}

const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN);
};

/** What one case measured; `hot` is what the hot partition takes per request in AWS (see the arithmetic in docs/operations.md). */
/** The last line this script prints, which run-all.ts reads. */
export interface HotItemsReport {
  seconds: number;
  partitionWcuPerSecond: number;
  results: CaseResult[];
}

export interface CaseResult {
  name: string;
  requests: number;
  statuses: Record<string, number>;
  count: number;
  expected: number;
  p50Ms: number;
  p99Ms: number;
  retries: number;
  givenUp: number;
  writeUnitsPerRequest: number;
  hotItem: string;
  hotWcuPerRequest: number;
  realPerSecond: number;
  localPerSecond: number;
  hotWcuPerSecond: number;
}

async function measure(
  name: string,
  route: string,
  rates: { realPerSecond: number; localPerSecond: number },
  send: (index: number) => Promise<number>,
  count: () => Promise<{ count: number; expected: number; hotItem: string; hotWcuPerRequest: number }>,
): Promise<CaseResult> {
  const requests = Math.round(rates.localPerSecond * SECONDS);
  runtime.tableUnits.forget(route);
  const before = { ...contendedWriteCounts };
  log(`${name}: ${requests} requests at ${rates.localPerSecond.toFixed(1)}/s`);
  const answers = await atRate(requests, rates.localPerSecond, send);
  const statuses: Record<string, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const units = runtime.tableUnits.byRoute().get(route);
  const counted = await count();
  return {
    name,
    requests,
    statuses,
    ...counted,
    p50Ms: percentile(
      answers.map((answer) => answer.ms),
      0.5,
    ),
    p99Ms: percentile(
      answers.map((answer) => answer.ms),
      0.99,
    ),
    retries: contendedWriteCounts.retries - before.retries,
    givenUp: contendedWriteCounts.givenUp - before.givenUp,
    writeUnitsPerRequest: units ? Math.round((units.total.write / units.requests) * 10) / 10 : Number.NaN,
    realPerSecond: rates.realPerSecond,
    localPerSecond: rates.localPerSecond,
    hotWcuPerSecond: Math.round(counted.hotWcuPerRequest * rates.realPerSecond),
  };
}

/** Write units of one write of an item of `bytes` (rounded up to whole KB), doubled in a transaction. */
const writeUnits = (bytes: number, transactional: boolean) => Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
/** About an item's stored size: its attribute names and values as JSON (DynamoDB counts names and values). */
const sizeOf = (item: unknown) => Buffer.byteLength(JSON.stringify(item ?? {}));

try {
  await runtime.ready;
  const db = bulkTableAccess(runtime);
  const api = runtime.url;
  const results: CaseResult[] = [];

  // 1. A viral story: every reader opened it (their relation's redirectedAt), then likes it.
  {
    const readers = await people(db, 'hot-liker', Math.round(CASES.likes.localPerSecond * SECONDS));
    const [sharer] = await people(db, 'hot-sharer', 1);
    const storyId = newStoryId();
    const url = `https://blog.example.com/${storyId}`;
    const story = {
      storyId,
      url,
      canonicalUrl: url,
      title: 'A story everyone likes',
      source: 'page' as const,
      sharerId: sharer?.userId ?? '',
      likeCount: 0,
      createdAt: new Date().toISOString(),
    };
    await db.transaction.write((entities) => [entities.story.create(story).commit(), ...siteWrites(entities, story)]).go();
    const openedAt = new Date().toISOString();
    await writeBatch({
      items: readers.map(({ userId }) => ({ storyId, userId, redirectedAt: openedAt })),
      send: async (items) => db.entities.storyRelation.put(items).go(),
      keyOf: (key) => `${key.storyId}/${key.userId}`,
      what: 'story relations',
    });
    results.push(
      await measure(
        'story likes',
        'likeStory',
        CASES.likes,
        async (index) => {
          const reader = readers[index];
          const answer = await fetch(`${api}/api/i/stories/story/${storyId}/like/on`, {
            method: 'PUT',
            headers: headers(reader?.token ?? ''),
          });
          await answer.arrayBuffer();
          return answer.status;
        },
        async () => {
          const { data: relations } = await db.entities.storyRelation.query
            .byStory({ storyId })
            .go({ pages: 'all', consistent: true });
          const { data: item } = await db.entities.story.get({ storyId }).go({ consistent: true });
          const { data: relation } = await db.entities.storyRelation.get({ storyId, userId: readers[0]?.userId ?? '' }).go();
          const [whole] = item ? await addShardedLikes(db, [item], { consistent: true }) : [];
          const { data: notices } = await db.entities.notification.query.byId({ userId: sharer?.userId ?? '' }).go();
          const shards = item?.likeShards;
          // Each like's transaction: the reader's relation (under the story's key) and the count,
          // on the story's item (the same key) or, sharded, on one of `shards` keys at random; then
          // the sharer's notification, a plain write (joining the open one) under the sharer's key.
          const relationWcu = writeUnits(sizeOf(relation), true);
          const countWcu = writeUnits(sizeOf(shards === undefined ? item : { storyId, shard: 0, likes: 0 }), true);
          const partitions = [
            shards === undefined
              ? { what: 'the story (relations and count)', wcu: relationWcu + countWcu }
              : { what: 'the story (relations)', wcu: relationWcu },
            ...(shards === undefined ? [] : [{ what: `each of ${shards} count shards`, wcu: countWcu / shards }]),
            { what: "the sharer's notification", wcu: writeUnits(sizeOf(notices[0]), false) },
          ];
          const hottest = partitions.reduce((top, partition) => (partition.wcu > top.wcu ? partition : top));
          return {
            count: whole?.likeCount ?? 0,
            expected: relations.filter((one) => one.likedAt !== undefined).length,
            hotItem: `${hottest.what}; per like: ${partitions.map((partition) => `${partition.what} ${partition.wcu}`).join(', ')}`,
            hotWcuPerRequest: hottest.wcu,
          };
        },
      ),
    );
  }

  // 2. A popular link transfer with one file and a download limit (so each download is counted on the transfer).
  {
    const [sender] = await people(db, 'hot-sender', 1);
    const now = new Date();
    const transferId = `hot-${now.getTime()}`;
    const expiresAt = Math.floor(now.getTime() / 1000) + 8 * 86_400;
    const link = newLinkKey();
    const file = {
      fileId: `${transferId}-file`,
      purpose: 'transfer' as const,
      ownerId: sender?.userId ?? '',
      transferId,
      folder: transferFolder(transferId),
      name: 'launch-trailer.mp4',
      size: 50_000_000,
      contentType: 'video/mp4',
      status: 'ready' as const,
      uploadMethod: 'post' as const,
      objectKey: `transfers/${transferId}/0`,
      checksum: 'd41d8cd98f00b204e9800998ecf8427e',
      createdAt: now.toISOString(),
      readyAt: now.toISOString(),
      expiresAt,
    };
    await db.entities.transfer
      .create({
        transferId,
        ownerId: sender?.userId ?? '',
        title: 'The trailer',
        message: '',
        status: 'sent',
        delivery: 'link',
        linkKeyHash: link.hash,
        downloadLimit: 1_000_000,
        downloadCount: 0,
        planId: 'free',
        maxTransferBytes: 2e9,
        maxRecipients: 50,
        fileCount: 1,
        totalBytes: file.size,
        recipientCount: 0,
        createdAt: now.toISOString(),
        finalizedAt: now.toISOString(),
        availableUntil: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
        expiresAt,
      })
      .go();
    await db.entities.storedFile.create(file).go();
    await db.entities.transferManifest.create({ transferId, fileCount: 1, files: encodeManifest([file]), expiresAt }).go();
    await db.entities.transferTally.create({ transferId, expiresAt }).go();
    results.push(
      await measure(
        'transfer downloads',
        'downloadFile',
        CASES.downloads,
        async () => {
          // Each visitor opens the link (its grant), then downloads: only the download is timed... by the sender's clock, both are.
          const opened = await fetch(`${api}/api/i/transfer/transfer/${transferId}/link/open`, {
            method: 'POST',
            headers: { [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, 'content-type': 'application/json' },
            body: JSON.stringify({ key: link.key }),
          });
          await opened.arrayBuffer();
          const cookie = opened.headers
            .getSetCookie()
            .map((line) => line.split(';')[0])
            .join('; ');
          const answer = await fetch(`${api}/api/i/file/file/${file.fileId}/download?disposition=attachment`, {
            headers: { [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, cookie },
          });
          await answer.arrayBuffer();
          return opened.ok ? answer.status : opened.status;
        },
        async () => {
          const { data: transfer } = await db.entities.transfer.get({ transferId }).go({ consistent: true });
          const { data: log } = await db.entities.transferDownload.query
            .byTransfer({ transferId })
            .go({ pages: 'all', consistent: true });
          const { data: claims } = await db.entities.transferDownload.query.byTransfer({ transferId }).go({ limit: 1 });
          return {
            count: transfer?.downloadCount ?? 0,
            expected: log.length,
            hotItem: `transfer ${transferId} (its partition key: the count and the download log)`,
            // In one transaction: the log entry and the count under the transfer's key (the visitor's claim has a key of its own).
            hotWcuPerRequest: writeUnits(sizeOf(claims[0]), true) + writeUnits(sizeOf(transfer), true),
          };
        },
      ),
    );
  }

  // 3. A merchant's launch: one product, one grade; customers with the grade in their cart pay.
  {
    const [merchant] = await people(db, 'hot-merchant', 1);
    const token = merchant?.token ?? '';
    const call = async <T>(as: string, method: string, path: string, body?: unknown): Promise<T> => {
      const answer = await fetch(`${api}/api/i/penpay${path}`, {
        method,
        headers: { ...headers(as), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const account = await call<{ id: string }>(token, 'POST', '/merchant/register', {
      shopName: 'Launch Day',
      handle: `launch-${Date.now().toString(36)}`,
      currency: 'USD',
      description: 'A shop launching one product.',
    });
    await call(token, 'PUT', '/merchant/me/mod/gateway', { environment: 'local' });
    const product = await call<{ id: string }>(token, 'POST', '/merchant/me/mod/product', {
      title: 'Launch edition',
      description: 'The first thousand.',
      visibility: 'public',
    });
    const grade = await call<{ id: string }>(token, 'POST', `/merchant/me/mod/productStock/${product.id}/grade`, {
      name: 'Launch edition',
      amountMinor: 2_500,
    });
    const customers = await people(db, 'hot-customer', Math.round(CASES.sales.localPerSecond * SECONDS));
    const invoices: string[] = [];
    for (let start = 0; start < customers.length; start += 8) {
      invoices.push(
        ...(await Promise.all(
          customers.slice(start, start + 8).map(async (customer) => {
            await call(customer.token, 'POST', '/customer/me/mod/cartItem', { productStockGradeId: grade.id, quantity: 1 });
            const cart = await call<{ invoice: { id: string } | null }>(
              customer.token,
              'GET',
              `/customer/me/v/cartInvoice?merchantAccountId=${account.id}`,
            );
            return cart.invoice?.id ?? '';
          }),
        )),
      );
    }
    log(`${customers.length} carts ready`);
    const paidAt = new Date();
    results.push(
      await measure(
        'store launch sales',
        'fulfillStoreInvoice',
        CASES.sales,
        async (index) => {
          const answer = await fetch(`${api}/api/i/penpay/customer/me/mod/invoice/${invoices[index]}/fulfill/subscription`, {
            method: 'POST',
            headers: { ...headers(customers[index]?.token ?? ''), 'content-type': 'application/json' },
            body: JSON.stringify({ paymentMethodNonce: 'fake-valid-visa-nonce' }),
          });
          await answer.arrayBuffer();
          return answer.status;
        },
        async () => {
          const period = figureDayOf(paidAt.toISOString());
          const { data: figure } = await db.entities.storeFigure
            .get({ merchantAccountId: account.id, scope: shopScope, period })
            .go({ consistent: true });
          const { data: sales } = await db.entities.storeSale.query
            .byScope({ merchantAccountId: account.id, scope: shopScope })
            .go({ pages: 'all', consistent: true });
          return {
            count: figure?.units ?? 0,
            expected: sales.reduce((total, sale) => total + sale.units, 0),
            hotItem: `the shop's day figures (its partition key: the figures and the shop's sale rows)`,
            // In one transaction: the shop's sale row and its day figures under the shop scope's key
            // (the product's and the grade's take the same again, each under its own key).
            hotWcuPerRequest: writeUnits(sizeOf(sales[0]), true) + writeUnits(sizeOf(figure), true),
          };
        },
      ),
    );
  }

  for (const result of results) {
    log(
      `${result.name}: ${JSON.stringify(result.statuses)}, count ${result.count} of ${result.expected}, retries ${result.retries}`,
    );
  }
  const report: HotItemsReport = { seconds: SECONDS, partitionWcuPerSecond: PARTITION_WCU_PER_SECOND, results };
  console.log(JSON.stringify(report));
} finally {
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
