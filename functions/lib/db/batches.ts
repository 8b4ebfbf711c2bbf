/**
 * BatchWriteItem and BatchGetItem may do part of the work and hand the rest back as
 * "unprocessed" (throttling, partition limits): that is normal under load, not an error. The
 * AWS guidance is to send the rest again with growing pauses, which is all this module does.
 * ElectroDB splits the requests into DynamoDB's batch sizes and reports what is left by key.
 */

export interface BatchRetryOptions {
  /** Rounds of sending before giving up (the first one included). */
  maxAttempts?: number;
  /** Pause before the second round; each later pause doubles. */
  baseDelayMs?: number;
}

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BASE_DELAY_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function pauseBefore(attempt: number, options: BatchRetryOptions): Promise<void> {
  if (attempt > 1) await sleep((options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS) * 2 ** (attempt - 2));
}

export class BatchIncomplete extends Error {
  override readonly name = 'BatchIncomplete';
}

/**
 * Writes (puts or deletes) every item, re-sending the unprocessed ones. `keyOf` turns an item,
 * or a key ElectroDB reports back, into one string, so reported keys map back to full items.
 * Throws BatchIncomplete naming how many `what` are still unwritten after the last attempt.
 */
export async function writeBatch<Key, Item extends Key>(input: {
  items: readonly Item[];
  send: (items: Item[]) => Promise<{ unprocessed: Key[] }>;
  keyOf: (key: Key) => string;
  what: string;
  options?: BatchRetryOptions;
}): Promise<void> {
  const maxAttempts = input.options?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  let pending = [...input.items];
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > maxAttempts) {
      throw new BatchIncomplete(`${pending.length} ${input.what} still unprocessed after ${maxAttempts} attempts`);
    }
    await pauseBefore(attempt, input.options ?? {});
    const { unprocessed } = await input.send(pending);
    const left = new Set(unprocessed.map(input.keyOf));
    pending = pending.filter((item) => left.has(input.keyOf(item)));
  }
}

/**
 * Reads every key, re-asking for the unprocessed ones. Answers what was found, in no particular
 * order (callers that need an order sort by key); keys of missing items are simply left out.
 */
export async function getBatch<Key, Item>(input: {
  keys: readonly Key[];
  send: (keys: Key[]) => Promise<{ data: Item[]; unprocessed: Key[] }>;
  what: string;
  options?: BatchRetryOptions;
}): Promise<Item[]> {
  const maxAttempts = input.options?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const found: Item[] = [];
  let pending = [...input.keys];
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > maxAttempts) {
      throw new BatchIncomplete(`${pending.length} ${input.what} still unread after ${maxAttempts} attempts`);
    }
    await pauseBefore(attempt, input.options ?? {});
    const { data, unprocessed } = await input.send(pending);
    found.push(...data);
    pending = unprocessed;
  }
  return found;
}
