import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { currentFunction, type FunctionScope } from '../../functions/lib/function-environment';

/**
 * What each route costs in the table, measured where the local runtime runs it: every command a
 * route's invocation sends asks for its ConsumedCapacity, and the units are added to that
 * invocation's tally, converted to what AWS would bill. Only the local runtime loads this file
 * (the functions never import infra/), so no Lambda bundle carries it.
 *
 * DynamoDB Local reports capacity as AWS does in most cases (checked with one command of each
 * kind against it, see docs/testing.md "What each route costs"): eventually consistent reads at
 * half a unit per 4 KB, strong ones at one, writes at one unit per KB plus one per index the item
 * is in (the indexes project ALL), transactions at double, a TransactGetItems miss at two. It
 * differs in three places, corrected here as AWS bills them:
 * - a Query or Scan that finds nothing reports 0, where AWS bills the minimum read (0.5, or 1
 *   when strongly consistent);
 * - a ConditionCheck inside TransactWriteItems reports 0, where AWS bills 2 write units (counted
 *   here for an item under 1 KB);
 * - a single-item write whose condition fails answers an error without ConsumedCapacity, where
 *   AWS still bills the write (the existing item's size, at least 1 unit: counted as 1).
 * A cancelled transaction reports nothing on either side and is counted as 0.
 */

export interface TableUnits {
  /** Read request units, as on-demand billing counts them. */
  read: number;
  /** Write request units. */
  write: number;
}

/** One ConsumedCapacity entry as the API returns it (one per table; transactions and batches return a list). */
export interface ConsumedCapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const READ_COMMANDS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);
const SINGLE_ITEM_WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);

/** Commands that accept ReturnConsumedCapacity (DescribeTable and the like do not). */
export const meteredCommand = (command: string): boolean => READ_COMMANDS.has(command) || WRITE_COMMANDS.has(command);

const sumOf = (consumed: ConsumedCapacityEntry | readonly ConsumedCapacityEntry[] | undefined): number =>
  (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce<number>(
    (total, entry: ConsumedCapacityEntry) =>
      total + (entry.CapacityUnits ?? (entry.ReadCapacityUnits ?? 0) + (entry.WriteCapacityUnits ?? 0)),
    0,
  );

interface CommandInput {
  ConsistentRead?: boolean;
  TransactItems?: readonly { ConditionCheck?: unknown }[];
}

/**
 * The units AWS would bill for one command: what DynamoDB Local reported (`consumed`, from a
 * successful answer) with the corrections above. `failedCondition` marks a single-item write
 * refused by its condition.
 */
export function billedUnits(
  command: string,
  input: CommandInput,
  answer: { consumed: ConsumedCapacityEntry | readonly ConsumedCapacityEntry[] | undefined } | { failedCondition: true },
): TableUnits {
  if ('failedCondition' in answer) {
    return { read: 0, write: SINGLE_ITEM_WRITES.has(command) ? 1 : 0 };
  }
  const reported = sumOf(answer.consumed);
  if (READ_COMMANDS.has(command)) {
    const minimum = command === 'QueryCommand' || command === 'ScanCommand' ? (input.ConsistentRead ? 1 : 0.5) : 0;
    return { read: Math.max(reported, minimum), write: 0 };
  }
  if (command === 'TransactWriteItemsCommand') {
    const checks = (input.TransactItems ?? []).filter((item) => item.ConditionCheck !== undefined).length;
    return { read: 0, write: reported + 2 * checks };
  }
  return { read: 0, write: WRITE_COMMANDS.has(command) ? reported : 0 };
}

/** Each invocation's tally, by the per-invocation copy of its function's scope. */
const tallies = new WeakMap<FunctionScope, TableUnits>();

const MIDDLEWARE_NAME = 'localTableUnits';

/**
 * Asks every table command for its ConsumedCapacity and adds the billed units to the tally of
 * the invocation it runs in. Commands outside a metered invocation (seeding, jobs, tests) are
 * sent unchanged.
 */
export function meterTableUnits(client: DynamoDBDocumentClient): void {
  if (client.middlewareStack.identify().some((entry) => entry.startsWith(MIDDLEWARE_NAME))) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = currentFunction();
      const tally = scope && tallies.get(scope);
      const command = context.commandName ?? '';
      if (!tally || !meteredCommand(command)) return next(args);
      const input = args.input as CommandInput;
      const add = (units: TableUnits) => {
        tally.read += units.read;
        tally.write += units.write;
      };
      try {
        const result = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } });
        const output = result.output as { ConsumedCapacity?: ConsumedCapacityEntry | ConsumedCapacityEntry[] };
        add(billedUnits(command, input, { consumed: output.ConsumedCapacity }));
        return result;
      } catch (error) {
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException') {
          add(billedUnits(command, input, { failedCondition: true }));
        }
        throw error;
      }
    },
    { step: 'initialize', name: MIDDLEWARE_NAME, priority: 'low' },
  );
}

/** What a route's successful (2xx, or a redirect's 3xx) invocations cost, per request. */
export interface RouteUnits {
  /** Successful invocations measured. */
  requests: number;
  /** The most units one of them took: the figure a budget bounds. */
  max: TableUnits;
  /**
   * The most units one of them took that ran alone: no other request of the runtime was in flight
   * at any moment of it. Absent when none did. A request beside another may find part of its work
   * done (a gateway's webhook applying the change first) or retry a contended write, so only
   * these are the same from run to run.
   */
  maxAlone?: TableUnits;
  /** All of them together, for a mean. */
  total: TableUnits;
}

/** One request in flight, and whether another was in flight at any moment of it. */
interface InFlight {
  beside: boolean;
}

const most = (a: TableUnits | undefined, b: TableUnits): TableUnits =>
  a ? { read: Math.max(a.read, b.read), write: Math.max(a.write, b.write) } : { ...b };

/**
 * Per route, the units its successful invocations took since the last reset. Failed ones are
 * left out: a refusal's cost (a session read, then a 404) says nothing about what the route
 * costs when it does its work. Kept as sums, so a long `npm start` holds one entry per route.
 */
export class RouteUnitsLog {
  private readonly routes = new Map<string, RouteUnits>();
  private readonly inFlight = new Set<InFlight>();

  /** Runs one invocation of `route` in a scope of its own, with a tally that `record` reads afterwards. */
  async meter<R>(route: string, scope: FunctionScope, invoke: (callScope: FunctionScope) => Promise<R>): Promise<R> {
    const callScope: FunctionScope = { ...scope };
    const tally: TableUnits = { read: 0, write: 0 };
    tallies.set(callScope, tally);
    const request: InFlight = { beside: this.inFlight.size > 0 };
    for (const other of this.inFlight) other.beside = true;
    this.inFlight.add(request);
    let result: R;
    try {
      result = await invoke(callScope);
    } finally {
      this.inFlight.delete(request);
    }
    const status = (result as { statusCode?: number } | undefined)?.statusCode ?? 200;
    // A redirect route's work ends in a 3xx (a story's link, a provider's callback).
    if (status >= 200 && status < 400) this.record(route, tally, { alone: !request.beside });
    return result;
  }

  private record(route: string, units: TableUnits, options: { alone: boolean }): void {
    const entry = this.routes.get(route) ?? { requests: 0, max: { read: 0, write: 0 }, total: { read: 0, write: 0 } };
    entry.requests += 1;
    entry.max = most(entry.max, units);
    if (options.alone) entry.maxAlone = most(entry.maxAlone, units);
    entry.total = { read: entry.total.read + units.read, write: entry.total.write + units.write };
    this.routes.set(route, entry);
  }

  /** Route name → its figures, in name order. */
  byRoute(): ReadonlyMap<string, RouteUnits> {
    return new Map([...this.routes].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** Drops what one route's invocations took so far (a warm-up call's). */
  forget(route: string): void {
    this.routes.delete(route);
  }

  reset(): void {
    this.routes.clear();
  }
}
