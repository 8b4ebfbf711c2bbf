/**
 * One ranking run for `npm run bench -- job-scale`, against a table already seeded at
 * DYNAMODB_ENDPOINT (TABLE_NAME). run-all bundles this file and runs it with plain node in a
 * process of its own, as Lambda runs the function's bundle: its peak memory is the job's, not a
 * TypeScript loader's. Every table request is counted by a middleware on this process's client
 * only (production code asks for no consumed capacity). Prints one JSON line.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { runRanking } from '../../functions/ranking/lib/ranking-run';

export interface CommandTally {
  requests: number;
  /** Items returned (reads) or written (writes, less those DynamoDB left unprocessed). */
  items: number;
  /** Read or write capacity units, as ConsumedCapacity reports them. */
  units: number;
}

export interface JobScaleRun {
  publications: number;
  boards: number;
  chunks: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** Memory V8 does not hold in its heap (Buffers, typed arrays' storage), at its most. */
  peakExternalMb: number;
  /** The most the heap held just after a full collection: what the job keeps alive, its garbage aside. */
  peakLiveHeapMb: number;
  baselineRssMb: number;
  timings: Record<string, number>;
  reads: CommandTally;
  writes: CommandTally;
  /** By command name (Query, BatchWriteItem, ...). */
  commands: Record<string, CommandTally>;
}

type Output = Record<string, unknown> & { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] };

const READ_COMMANDS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

function sumOf(tallies: CommandTally[]): CommandTally {
  return tallies.reduce(
    (sum, tally) => ({
      requests: sum.requests + tally.requests,
      items: sum.items + tally.items,
      units: sum.units + tally.units,
    }),
    { requests: 0, items: 0, units: 0 },
  );
}

function itemsOf(name: string, input: Record<string, unknown>, output: Output): number {
  const sizes = (requests: unknown) =>
    Object.values((requests ?? {}) as Record<string, unknown[]>).reduce((sum, list) => sum + list.length, 0);
  switch (name) {
    case 'Query':
    case 'Scan':
      return Number(output.Count ?? 0);
    case 'GetItem':
      return output.Item ? 1 : 0;
    case 'BatchGetItem':
      return sizes(output.Responses);
    case 'BatchWriteItem':
      return sizes(input.RequestItems) - sizes(output.UnprocessedItems);
    case 'TransactWriteItems':
      return (input.TransactItems as unknown[]).length;
    default:
      return 1;
  }
}

/** Counts each command the client sends, at the outermost step: one per call, whatever its retries. */
function tallyRequests(client: DynamoDBDocumentClient): Record<string, CommandTally> {
  const commands: Record<string, CommandTally> = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as Output;
      const name = context.commandName?.replace(/Command$/, '') ?? 'unknown';
      const tally = (commands[name] ??= { requests: 0, items: 0, units: 0 });
      tally.requests += 1;
      tally.items += itemsOf(name, input, output);
      const consumed = output.ConsumedCapacity;
      for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
        tally.units += entry.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'benchRequestTally' },
  );
  return commands;
}

async function main(): Promise<void> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const table = process.env.TABLE_NAME;
  if (!endpoint || !table) throw new Error('Usage: DYNAMODB_ENDPOINT=... TABLE_NAME=... node ranking-job-scale.mjs');
  // A longer bound than a handler's: at 100,000 publications DynamoDB Local, on the same two cores
  // as the job, takes more than 5 s over some BatchWrites that DynamoDB answers in milliseconds.
  const client = createDocumentClient({ endpoint, region: 'us-east-1', requestTimeout: 60_000 });
  const commands = tallyRequests(client);
  const db = createDb(client, table);

  // Sampled often enough to catch the peak of the heap, which maxRSS alone does not separate out.
  let peakHeap = 0;
  let peakExternal = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakExternal = Math.max(peakExternal, usage.external);
  }, 20);
  let peakLiveHeap = 0;
  const collections = new PerformanceObserver((list) => {
    if (
      list
        .getEntries()
        .some(
          (entry) =>
            (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
        )
    )
      peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
  });
  collections.observe({ entryTypes: ['gc'] });
  const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const report = await runRanking(db);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  collections.disconnect();

  const result: JobScaleRun = {
    publications: report.publications,
    boards: report.boards,
    chunks: report.chunks,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    peakHeapMb: Math.round(peakHeap / 2 ** 20),
    peakExternalMb: Math.round(peakExternal / 2 ** 20),
    peakLiveHeapMb: Math.round(peakLiveHeap / 2 ** 20),
    baselineRssMb: Math.round(baselineRssMb),
    timings: report.timings,
    reads: sumOf(Object.entries(commands).flatMap(([name, tally]) => (READ_COMMANDS.has(name) ? [tally] : []))),
    writes: sumOf(Object.entries(commands).flatMap(([name, tally]) => (READ_COMMANDS.has(name) ? [] : [tally]))),
    commands,
  };
  console.log(JSON.stringify(result));
}

await main();
