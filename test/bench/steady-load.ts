import { Agent, request } from 'node:http';

export interface SteadyLoadResult {
  /** Requests answered per second, over the run. */
  rate: number;
  p50: number;
  p99: number;
  /** Requests that failed or answered anything but 2xx. */
  errors: number;
}

/**
 * An open-loop load: one request every 1000/rate ms, evenly spaced, each sent whether or not the
 * earlier ones were answered, as independent visitors arrive. (autocannon's rate limit lets a
 * second's whole quota go at the start of that second, so its latencies measure the queue of a
 * burst, not a steady load.) Latency runs from the moment a request was due to its last byte.
 */
export async function steadyLoad(options: {
  url: string;
  rate: number;
  seconds: number;
  path: () => string;
  /** Sent with every request (a session cookie). */
  headers?: Record<string, string>;
}): Promise<SteadyLoadResult> {
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
            path: options.path(),
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
