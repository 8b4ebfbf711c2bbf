/**
 * Benchmark: analytics ingestion on a running `npm start` (API_URL). 16 senders post batches of
 * 50 valid events, as mixpanel-browser does (a form with base64 JSON), for BENCH_ANALYTICS_SECONDS
 * (10 by default) after a 1 s warm-up. Requests come from 64 loopback addresses (127.0.1.x) in
 * turn, as many browsers would, so the per-address rate limit is not what is measured.
 *
 * Prints one JSON line: { eventsPerSecond, p50Ms, p99Ms, batches, errors }.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

const { API_URL } = process.env;
if (!API_URL) throw new Error('Usage: API_URL=http://127.0.0.1:3000 tsx test/bench/analytics-ingest.ts');
const SECONDS = Number(process.env.BENCH_ANALYTICS_SECONDS ?? 10);
const SENDERS = 16;
const BATCH = 50;
const ADDRESSES = 64;

const target = new URL('/api/e/analytics/track', API_URL);
const agents = Array.from(
  { length: ADDRESSES },
  (_, index) => new Agent({ keepAlive: true, localAddress: `127.0.1.${index + 1}` }),
);
let nextAgent = 0;

/** A batch as mixpanel-browser sends it: events of one person's session, each with its own id. */
function batchForm(): string {
  const person = randomUUID();
  const now = Date.now() / 1000;
  const events = Array.from({ length: BATCH }, (_, index) => ({
    event: index % 5 === 0 ? 'Transfer Files Added' : 'Page Viewed',
    properties: {
      ...(index % 5 === 0 ? { files: 2, bytes: 123_456 } : { route: '/topic/:tag' }),
      $os: 'Linux',
      $browser: 'Chrome',
      $current_url: 'https://toppubs.example/topic/news',
      $browser_version: 140,
      $screen_height: 1080,
      $screen_width: 1920,
      mp_lib: 'web',
      $lib_version: '2.83.0',
      $insert_id: `${person.slice(0, 8)}${index.toString(36).padStart(8, '0')}`,
      time: now + index / 1000,
      distinct_id: `$device:${person}`,
      $device_id: person,
      token: 'bench',
    },
  }));
  return `data=${encodeURIComponent(Buffer.from(JSON.stringify(events)).toString('base64'))}`;
}

function post(form: string): Promise<{ status: number; accepted: number }> {
  const agent = agents[nextAgent++ % ADDRESSES] as Agent;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}?verbose=1&ip=1&_=${Date.now()}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const accepted = response.statusCode === 200 ? ((JSON.parse(text) as { accepted: number }).accepted ?? 0) : 0;
          resolve({ status: response.statusCode ?? 0, accepted });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(form);
  });
}

async function send(until: number, record: boolean, stats: { latencies: number[]; accepted: number; errors: number }) {
  while (Date.now() < until) {
    const form = batchForm();
    const started = performance.now();
    const answer = await post(form).catch(() => ({ status: 0, accepted: 0 }));
    if (!record) continue;
    stats.latencies.push(performance.now() - started);
    stats.accepted += answer.accepted;
    if (answer.status !== 200) stats.errors += 1;
  }
}

const warmUp = { latencies: [], accepted: 0, errors: 0 };
await Promise.all(Array.from({ length: SENDERS }, () => send(Date.now() + 1_000, false, warmUp)));
const stats = { latencies: [] as number[], accepted: 0, errors: 0 };
const started = performance.now();
await Promise.all(Array.from({ length: SENDERS }, () => send(Date.now() + SECONDS * 1_000, true, stats)));
const elapsedSeconds = (performance.now() - started) / 1000;
const sorted = stats.latencies.sort((a, b) => a - b);
const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN);
for (const agent of agents) agent.destroy();
console.log(
  JSON.stringify({
    eventsPerSecond: Math.round(stats.accepted / elapsedSeconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    batches: sorted.length,
    errors: stats.errors,
  }),
);
