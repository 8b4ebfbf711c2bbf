import { describe, expect, it } from 'vitest';
import { type LocalQueueDeclaration, type Outgoing, SqsStore } from '../../infra/local/sqs/store';

const FIFO: LocalQueueDeclaration = { name: 'work', fifo: true, visibilityTimeoutSeconds: 60, maxReceiveCount: 2 };
const START = Date.UTC(2026, 0, 5, 9);

/** A store on a clock the test sets, with its log lines. */
function storeWith(declaration: LocalQueueDeclaration = FIFO) {
  const clock = { at: START, now: () => clock.at };
  const lines: string[] = [];
  const store = new SqsStore([declaration], clock, (line) => lines.push(line));
  return { store, queue: store.queueNamed(declaration.name), clock, lines };
}

const message = (body: string, groupId?: string, deduplicationId = body): Outgoing => ({
  body,
  attributes: {},
  bytes: body.length,
  delaySeconds: 0,
  ...(groupId === undefined ? {} : { groupId, deduplicationId }),
});

const bodies = (receipts: { message: { body: string } }[]) => receipts.map((receipt) => receipt.message.body);

describe('the local SQS store', () => {
  it('hides a received message for the visibility timeout, and a FIFO group behind it', () => {
    // Prepare
    const { store, queue } = storeWith();
    store.enqueue(queue, message('a1', 'a'), 'sender');
    store.enqueue(queue, message('a2', 'a'), 'sender');
    store.enqueue(queue, message('b1', 'b'), 'sender');
    const first = store.receive(queue, 1, START);

    // Act
    const meanwhile = store.receive(queue, 10, START + 59_999);
    store.complete(queue, first, new Set([first[0]!.message]), 'failed on purpose');
    const stillHidden = store.receive(queue, 10, START + 59_999);
    const again = store.receive(queue, 10, START + 60_000);

    // Assess
    expect(bodies(first)).toEqual(['a1']);
    expect(bodies(meanwhile)).toEqual(['b1']);
    expect(stillHidden).toEqual([]);
    expect(bodies(again)).toEqual(['a1', 'a2']);
    expect(again[0]!.message).toMatchObject({ receiveCount: 2, firstReceivedAt: START, lastFailure: 'failed on purpose' });
    expect(store.nextVisibleAt(queue, START + 60_000)).toBe(START + 59_999 + 60_000);
  });

  it('lets only the latest receive delete a message: a result after the visibility timeout is stale', () => {
    // Prepare
    const { store, queue } = storeWith({ ...FIFO, maxReceiveCount: 5 });
    store.enqueue(queue, message('slow', 'g'), 'sender');
    const late = store.receive(queue, 1, START);
    const current = store.receive(queue, 1, START + 60_000);

    // Act
    const staleCount = store.complete(queue, late, new Set(), '');
    const afterLate = queue.messages.length;
    const currentStale = store.complete(queue, current, new Set(), '');

    // Assess
    expect(staleCount).toBe(1);
    expect(afterLate).toBe(1);
    expect(currentStale).toBe(0);
    expect(queue.messages).toEqual([]);
  });

  it('moves a message to the dead letters on the receive after its last allowed one, and frees its group', () => {
    // Prepare
    const { store, queue, lines } = storeWith();
    store.enqueue(queue, message('poison', 'g'), 'sender');
    store.enqueue(queue, message('next', 'g'), 'sender');
    for (const at of [START, START + 60_000]) {
      const receipts = store.receive(queue, 1, at);
      store.complete(queue, receipts, new Set(receipts.map((receipt) => receipt.message)), 'it throws');
    }

    // Act
    const received = store.receive(queue, 10, START + 120_000);

    // Assess
    expect(bodies(received)).toEqual(['next']);
    expect(queue.deadLetters).toEqual([
      { messageId: expect.any(String), body: 'poison', groupId: 'g', receiveCount: 2, reason: 'it throws' },
    ]);
    expect(lines).toEqual([expect.stringContaining('moved to the dead-letter queue after 2 receives')]);
  });

  it('answers a deduplication id seen within 5 minutes with its first send, and enqueues it again after', () => {
    // Prepare
    const { store, queue, clock } = storeWith();
    const first = store.enqueue(queue, message('once', 'g', 'id-1'), 'sender');

    // Act
    clock.at = START + 299_999;
    const duplicate = store.enqueue(queue, message('once again', 'g', 'id-1'), 'sender');
    clock.at = START + 300_000;
    const later = store.enqueue(queue, message('once more', 'g', 'id-1'), 'sender');

    // Assess
    expect(duplicate).toEqual(first);
    expect(later.messageId).not.toBe(first.messageId);
    expect(BigInt(later.sequenceNumber!)).toBeGreaterThan(BigInt(first.sequenceNumber!));
    expect(queue.messages.map((stored) => stored.body)).toEqual(['once', 'once more']);
  });

  it('delays a standard queue’s message and deletes one unread past the retention period', () => {
    // Prepare
    const { store, queue, lines } = storeWith({
      name: 'plain',
      fifo: false,
      visibilityTimeoutSeconds: 0,
      maxReceiveCount: 3,
      retentionSeconds: 60,
    });
    store.enqueue(queue, { ...message('delayed'), delaySeconds: 30 }, 'sender');
    store.enqueue(queue, message('old'), 'sender');

    // Act
    const early = store.receive(queue, 10, START + 29_999);
    const expired = store.receive(queue, 10, START + 60_000);

    // Assess
    expect(bodies(early)).toEqual(['old']);
    expect(expired).toEqual([]);
    expect(queue.messages).toEqual([]);
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.includes("deleted unread after the queue's retention period"))).toBe(true);
  });
});
