/**
 * A crawler-visible topic page under load, against a running `npm start`: CONCURRENCY clients
 * each GET the page's full HTML over and over for DURATION_S seconds; the time to first byte of
 * every answer (request sent to the status line and headers in) gives p50 and p99. Prints one
 * JSON line: { requests, ttfbP50Ms, ttfbP99Ms }. Goal: p99 ≤ 25 ms.
 *
 *   npx tsx test/bench/crawler-page.ts [origin] (default http://127.0.0.1:3000; DURATION_S=10, CONCURRENCY=20)
 *
 * With `npm start` as it is, pages are reused by the local edge cache as CloudFront reuses them;
 * run `LOCAL_EDGE_CACHE=off npm start` to time every request through the renderer instead.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';

export interface CrawlerPageResult {
  requests: number;
  ttfbP50Ms: number;
  ttfbP99Ms: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** One GET of the page: its time to first byte, once the whole body has been read. */
function timedGet(agent: Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const outgoing = request(url, { agent, headers: { 'user-agent': 'crawler-page-bench', accept: 'text/html' } }, (answer) => {
      const ttfb = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.statusCode !== 200) reject(new Error(`${url.pathname} answered ${answer.statusCode}`));
      answer.on('data', () => undefined);
      answer.on('end', () => resolve(ttfb));
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The biggest topic's page: the board a crawler most likely reads. */
async function topicPagePath(origin: string): Promise<string> {
  const home = (await (await fetch(`${origin}/api/i/toppubs/show/home`)).json()) as { popularTopics: { tag: string }[] };
  const tag = home.popularTopics[0]?.tag;
  if (!tag) throw new Error('The boards have no topic yet: wait for the ranking job');
  return `/topic/${tag}`;
}

export async function benchCrawlerPage(options: {
  origin: string;
  durationMs: number;
  concurrency: number;
}): Promise<CrawlerPageResult> {
  const url = new URL(await topicPagePath(options.origin), options.origin);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  // The page must be a rendered one, or the figure means nothing.
  const sample = await (await fetch(url)).text();
  if (!sample.includes('id="page-data"')) throw new Error(`${url.pathname} is not a rendered page`);
  const ttfbs: number[] = [];
  const endAt = Date.now() + options.durationMs;
  const client = async () => {
    while (Date.now() < endAt) ttfbs.push(await timedGet(agent, url));
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, client));
  } finally {
    agent.destroy();
  }
  const sorted = ttfbs.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { requests: sorted.length, ttfbP50Ms: round(percentile(sorted, 0.5)), ttfbP99Ms: round(percentile(sorted, 0.99)) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchCrawlerPage({
    origin: process.argv[2] ?? 'http://127.0.0.1:3000',
    durationMs: Number(process.env.DURATION_S ?? 10) * 1000,
    concurrency: Number(process.env.CONCURRENCY ?? 20),
  }).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
