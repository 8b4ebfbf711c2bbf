import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export interface SteadyLoadResult {
  /** Requests answered per second, over the run. */
  rate: number;
  p50: number;
  p99: number;
  /** Requests that failed or answered anything but 2xx. */
  errors: number;
}

export interface SteadyLoadOptions {
  url: string;
  rate: number;
  seconds: number;
  /** The path of the nth request. */
  path: (index: number) => string;
  /** Sent with every request (a session cookie). */
  headers?: Record<string, string>;
}

/**
 * The load below, sent from a process of its own: a bench process holds every module it has
 * loaded and every figure it has gathered, and its garbage collection paused the sender often
 * enough to add 30-60 ms to one answer in fifty, which is the sender's delay, not the server's.
 * The paths are worked out here and sent along, as a function cannot cross processes.
 */
export function steadyLoad(options: SteadyLoadOptions): Promise<SteadyLoadResult> {
  const total = Math.round(options.rate * options.seconds);
  const paths = Array.from({ length: total }, (_, index) => options.path(index));
  const { path: _path, ...rest } = options;
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, STEADY_LOAD_CHILD: '1' },
    });
    child.once('message', (result) => {
      resolve(result as SteadyLoadResult);
      child.kill();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`The load process exited with ${code}`));
    });
    child.send({ ...rest, paths });
  });
}

if (process.env.STEADY_LOAD_CHILD === '1') {
  process.once('message', (message: Omit<SteadyLoadOptions, 'path'> & { paths: string[] }) => {
    void sendSteadyLoad({ ...message, path: (index) => message.paths[index] as string }).then((result) => process.send?.(result));
  });
}

/**
 * An open-loop load: one request every 1000/rate ms, evenly spaced, each sent whether or not the
 * earlier ones were answered, as independent visitors arrive. (autocannon's rate limit lets a
 * second's whole quota go at the start of that second, so its latencies measure the queue of a
 * burst, not a steady load.) Latency runs from the moment a request was due to its last byte.
 */
async function sendSteadyLoad(options: SteadyLoadOptions): Promise<SteadyLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(options.url);
  const intervalMs = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let sent = 0; sent < total; sent += 1) {
    const due = started + sent * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const outgoing = request(
          {
            host: target.hostname,
            port: target.port,
            path: options.path(sent),
            agent,
            method: 'GET',
            headers: options.headers ?? {},
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              if ((response.statusCode ?? 0) >= 300) errors += 1;
              latencies.push(performance.now() - due);
              resolve();
            });
          },
        );
        outgoing.on('error', () => {
          errors += 1;
          resolve();
        });
        outgoing.end();
      }),
    );
  }
  await Promise.all(pending);
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0);
  return { rate: latencies.length / elapsedSeconds, p50: at(0.5), p99: at(0.99), errors };
}
