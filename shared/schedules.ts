import { type Capabilities, capabilitiesOf } from './capabilities';

/**
 * Scheduled jobs, described once: EventBridge rules in AWS, timers in the local runtime.
 * `handler` is the file under functions/ that exports `handler`.
 */
export interface JobSchedule {
  name: string;
  handler: string;
  /** Minutes between runs (EventBridge `rate(...)`). */
  everyMinutes: number;
  /** Run once when the local runtime starts. */
  runAtLocalStart: boolean;
  description: string;
  /** What the job's function may do, as for routes. */
  capabilities: Capabilities;
  /** Reaches the public internet (feeds); gets a longer timeout. */
  usesNetwork: boolean;
  /** Memory of its function in AWS, when not JOB_MEMORY_MB. */
  memoryMb?: number;
}

/** What a job's function is given in AWS unless it says otherwise (infra/cdk/stacks/jobs-stack.ts). */
export const JOB_MEMORY_MB = 1_024;
/**
 * The ranking job holds every publication at once and spends most of its run on the CPU: at
 * 2,048 MB Lambda gives it a whole vCPU (1,769 MB and up), so a run takes half as long for the
 * same GB-seconds, and the job-scale bench holds it to a third of this at 200,000 publications
 * (docs/operations.md, "Ranking job at scale").
 */
export const RANKING_JOB_MEMORY_MB = 2_048;
export const JOB_TIMEOUT_MINUTES = 5;
/** Feed reads wait on other people's servers. */
export const NETWORK_JOB_TIMEOUT_MINUTES = 10;

export const JOB_SCHEDULES: readonly JobSchedule[] = [
  {
    name: 'rank-publications',
    handler: 'ranking/rank-publications',
    everyMinutes: 60,
    runAtLocalStart: true,
    description: 'Recomputes every ranking board into ranked pages, and tells followers of publications that rose.',
    // Followers hear the news through the notification-fanout queue: the job sends one message
    // per publication that rose, and the queue's consumer writes, pushes and mails.
    capabilities: capabilitiesOf({ queues: ['notification-fanout'] }, { table: 'read-write' }),
    usesNetwork: false,
    memoryMb: RANKING_JOB_MEMORY_MB,
  },
  {
    name: 'send-publication-digest',
    handler: 'ranking/send-publication-digest',
    everyMinutes: 7 * 24 * 60,
    runAtLocalStart: false,
    description:
      'Sends everyone who follows publications, a page at a time, to the publication-digest queue, whose consumer mails those with the weekly digest on the week of what they follow.',
    // Reads who follows what; the queue's consumer reads the rest and mails.
    capabilities: capabilitiesOf({ queues: ['publication-digest'] }, { table: 'read' }),
    usesNetwork: false,
  },
  {
    name: 'archive-rankings',
    handler: 'ranking/archive-rankings',
    // Daily rather than on the 1st: the first run after a month closes archives it, the others
    // find it archived after one Query, and a failed run is made good the next day while the
    // month's rank history lasts (the did-not-run alarm watches a daily job too).
    everyMinutes: 24 * 60,
    runAtLocalStart: true,
    description:
      'Archives each closed month once: its most followed, fastest growing and most active publications, overall and per topic, and the months each publication ranked in.',
    // Reads the rank and follower history and the publications; writes the archive once.
    capabilities: capabilitiesOf({}, { table: 'read-write' }),
    usesNetwork: false,
  },
  {
    name: 'collect-feeds',
    handler: 'ranking/collect-feeds',
    everyMinutes: 360,
    runAtLocalStart: false,
    description: 'Reads publication RSS/Atom feeds to update latestPostAt.',
    capabilities: capabilitiesOf({}, { table: 'read-write' }),
    usesNetwork: true,
  },
  {
    name: 'plan-source-collection',
    handler: 'ranking/plan-source-collection',
    // Daily: a host's day of batches (medium.com's 20,000 sources take about 12 hours) ends
    // before the next plan, so a plan never queues what the last one still holds.
    everyMinutes: 24 * 60,
    runAtLocalStart: false,
    description:
      "Sends every publication source due for collection (none in the last 20 hours) to the collection queue, in batches of one host's sources.",
    capabilities: capabilitiesOf({ queues: ['source-collection'] }, { table: 'read' }),
    usesNetwork: false,
  },
  {
    name: 'rank-hot-stories',
    handler: 'stories/rank-hot-stories',
    everyMinutes: 10,
    runAtLocalStart: true,
    description: "Recomputes the hot stories feed's order from the last week's stories and their likes.",
    capabilities: capabilitiesOf({}, { table: 'read-write' }),
    usesNetwork: false,
  },
  {
    name: 'aggregate-analytics',
    handler: 'analytics/aggregate-analytics',
    everyMinutes: 15,
    runAtLocalStart: true,
    description:
      "Rewrites yesterday's and today's product figures (active users, events, the transfer funnel, finalize timing, upgrades, storefront sales) from the stored analytics events.",
    // Reads the stored events and writes the daily aggregates; the table only as every function may.
    capabilities: capabilitiesOf({ analytics: 'aggregate' }, { table: 'read' }),
    usesNetwork: false,
  },
  {
    name: 'reconcile-payments',
    handler: 'billing/reconcile-payments',
    everyMinutes: 24 * 60,
    runAtLocalStart: false,
    description:
      "Compares yesterday's payment records and the subscriptions' statuses with what each seller's gateway reports (the platform's for the Pro plan, each connected shop's own), stores a report per seller and logs every difference.",
    // Reads both sides; writes only the reports. Opens each shop's sealed keys to reach its gateway.
    capabilities: capabilitiesOf({ payments: true, merchantKeys: 'open' }, { table: 'read-write' }),
    // Braintree is on the internet: a day of a large seller's transactions is read page by page.
    usesNetwork: true,
  },
];
