import type { Capabilities } from './capabilities';
import { WORK_QUEUES } from './queues';
import { REALTIME_HANDLERS } from './realtime';
import { routeEntries } from './routes/index';
import { JOB_SCHEDULES } from './schedules';

/** One deployed function, whatever invokes it. */
export interface FunctionEntry {
  /** The route, job, WebSocket route or queue consumer it serves. */
  name: string;
  kind: 'route' | 'job' | 'realtime' | 'queue-consumer';
  /** The file under functions/ that exports `handler`. */
  handler: string;
  capabilities: Capabilities;
}

/**
 * Every function of the product, from the four places that declare them: the route table, the
 * job schedules, the WebSocket handlers and the work queues' consumers. The bundler, the
 * benchmarks and the tests that must see every function read this list, so a new kind of
 * function cannot be missed by one of them.
 */
export const EVERY_FUNCTION: readonly FunctionEntry[] = [
  ...routeEntries.map(([name, route]) => ({ name, kind: 'route' as const, handler: route.handler, capabilities: route.capabilities })),
  ...JOB_SCHEDULES.map((job) => ({ name: job.name, kind: 'job' as const, handler: job.handler, capabilities: job.capabilities })),
  ...REALTIME_HANDLERS.map((realtime) => ({
    name: realtime.name,
    kind: 'realtime' as const,
    handler: realtime.handler,
    capabilities: realtime.capabilities,
  })),
  ...WORK_QUEUES.map((queue) => ({
    name: queue.consumer.name,
    kind: 'queue-consumer' as const,
    handler: queue.consumer.handler,
    capabilities: queue.consumer.capabilities,
  })),
];
