/**
 * How the table says no. A refused condition is an answer, not a failure: the caller lost a
 * race, or the item is not in the state it expected. These helpers tell that apart from
 * everything else (throttling, a transaction that merely collided with another one, bugs),
 * reading only error names and DynamoDB's cancellation codes: message texts are not a contract.
 */

const CONDITION_FAILED = 'ConditionalCheckFailed';

interface AwsErrorShape {
  name?: unknown;
  cause?: unknown;
  CancellationReasons?: readonly ({ Code?: string } | undefined)[];
}

/**
 * True when a write was refused because its condition did not hold:
 * - a single write (PutItem, UpdateItem, DeleteItem): ConditionalCheckFailedException, which
 *   ElectroDB hands on as the `cause` of its own error;
 * - a transaction sent without ElectroDB: TransactionCanceledException whose cancellation
 *   reasons include ConditionalCheckFailed. One cancelled only because it collided with another
 *   transaction (TransactionConflict) or was throttled is not a refused condition: retrying it
 *   can succeed.
 * Transactions sent through ElectroDB never throw for a cancellation: read their result with
 * `failedConditions` instead.
 */
export function isConditionalCheckFailed(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as AwsErrorShape;
    if (candidate.name === 'ConditionalCheckFailedException') return true;
    if (candidate.name === 'TransactionCanceledException') {
      return (candidate.CancellationReasons ?? []).some((reason) => reason?.Code === CONDITION_FAILED);
    }
    current = candidate.cause;
  }
  return false;
}

/** What ElectroDB resolves a write transaction with: one entry per item, in the order given. */
export interface TransactionWriteResult {
  canceled: boolean;
  data: readonly { rejected: boolean; code: string }[];
}

/**
 * The positions of the items whose condition failed in a cancelled transaction; empty when it
 * went through, or when it was cancelled for another reason (a conflict with a concurrent
 * transaction: worth retrying as it was).
 */
export function failedConditions(result: TransactionWriteResult): number[] {
  if (!result.canceled) return [];
  return result.data.flatMap((entry, index) => (entry.code === CONDITION_FAILED ? [index] : []));
}
