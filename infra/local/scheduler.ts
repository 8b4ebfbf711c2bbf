import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import type { JobSchedule } from '../../shared/schedules';

/** The event an EventBridge rate rule delivers: each run has its own id, which a retry of it keeps. */
function scheduledEvent(schedule: JobSchedule): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'local',
    resources: [`arn:aws:events:local:000000000000:rule/${schedule.name}-schedule`],
    detail: {},
  };
}

export type JobHandler = (event: unknown) => Promise<unknown>;

/**
 * Runs the scheduled jobs on the same rates EventBridge uses in AWS. A run never overlaps the
 * previous run of the same job.
 */
export function startScheduler(jobs: { schedule: JobSchedule; handler: JobHandler }[], log: (line: string) => void) {
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<string, Promise<void>>();

  const run = (schedule: JobSchedule, handler: JobHandler): Promise<void> => {
    const inFlight = running.get(schedule.name);
    if (inFlight) return inFlight;
    const started = Date.now();
    const promise = handler(scheduledEvent(schedule))
      .then(() => log(`job ${schedule.name} finished in ${((Date.now() - started) / 1000).toFixed(1)} s`))
      .catch((error: unknown) => log(`job ${schedule.name} failed: ${(error as Error).message}`))
      .finally(() => running.delete(schedule.name));
    running.set(schedule.name, promise);
    return promise;
  };

  for (const { schedule, handler } of jobs) {
    const timer = setInterval(() => void run(schedule, handler), schedule.everyMinutes * 60_000);
    timer.unref();
    timers.push(timer);
  }

  return {
    runNow: (name: string) => {
      const job = jobs.find(({ schedule }) => schedule.name === name);
      if (!job) throw new Error(`No job called ${name}`);
      return run(job.schedule, job.handler);
    },
    stop: async () => {
      timers.forEach(clearInterval);
      await Promise.allSettled(running.values());
    },
  };
}
