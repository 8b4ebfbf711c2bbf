import { describe, expect, it } from 'vitest';
import {
  expandMessage,
  expansionMessages,
  type FanOutEvent,
  fanOutMessageSchema,
  fanOutNotificationId,
  packTransactions,
  RECIPIENTS_PER_PAGE,
} from '../../functions/lib/notification-fanout';

const EVENT: FanOutEvent = {
  id: 'publication-rose:2026-01-05T09:00:00.000Z~a1b2c3d4:ux-collective',
  kind: 'publication-rose',
  object: {
    type: 'publication',
    id: 'ux-collective',
    title: 'UX Collective',
    detail: 'climbed 12 places to #3 on Most followed',
  },
  at: '2026-01-05T09:00:00.000Z',
  audience: { type: 'publication-followers', slug: 'ux-collective' },
};

describe('notification fan-out, the pure parts', () => {
  it('derives one notification id per event, the same on every delivery and shaped like the random ones', () => {
    // Act
    const first = fanOutNotificationId(EVENT.id);
    const again = fanOutNotificationId(EVENT.id);
    const nextRun = fanOutNotificationId(EVENT.id.replace('a1b2c3d4', 'e5f6a7b8'));

    // Assess
    expect(first).toBe(again);
    expect(first).not.toBe(nextRun);
    expect(first).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('splits a stretch of the audience into pages of 100, and reads on only when the audience goes on', () => {
    // Prepare
    const recipients = Array.from({ length: 250 }, (_, index) => `reader-${index}`);

    // Act
    const goesOn = expansionMessages(EVENT, recipients, 'cursor-after-250');
    const ends = expansionMessages(EVENT, recipients.slice(0, 100), null);
    const empty = expansionMessages(EVENT, [], null);

    // Assess
    const parsed = goesOn.map((message) => fanOutMessageSchema.parse(message.body));
    expect(parsed.map((message) => (message.step === 'deliver' ? message.recipientIds.length : message.cursor))).toEqual([
      100,
      100,
      50,
      'cursor-after-250',
    ]);
    expect(parsed.flatMap((message) => (message.step === 'deliver' ? message.recipientIds : []))).toEqual(recipients);
    expect(ends.map((message) => fanOutMessageSchema.parse(message.body).step)).toEqual(['deliver']);
    expect(empty).toEqual([]);
    expect(goesOn.every((message) => message.groupId === undefined && message.deduplicationKey === undefined)).toBe(true);
  });

  it('refuses a message it cannot act on: an unknown step, a page over 100, an empty page', () => {
    // Prepare
    const page = (count: number) => ({
      step: 'deliver',
      event: EVENT,
      recipientIds: Array.from({ length: count }, (_, index) => `r${index}`),
    });

    // Act
    const valid = fanOutMessageSchema.safeParse(expandMessage(EVENT).body);
    const unknownStep = fanOutMessageSchema.safeParse({ step: 'shout', event: EVENT });
    const tooLong = fanOutMessageSchema.safeParse(page(RECIPIENTS_PER_PAGE + 1));
    const empty = fanOutMessageSchema.safeParse(page(0));

    // Assess
    expect(valid.success).toBe(true);
    expect([unknownStep.success, tooLong.success, empty.success]).toEqual([false, false, false]);
  });

  it('packs recipients whole into transactions of at most 100 actions, in order', () => {
    // Prepare: 40 new notifications (3 writes each) and 10 refreshed ones (1 each).
    const items = [...Array.from({ length: 40 }, () => 3), ...Array.from({ length: 10 }, () => 1)];

    // Act
    const packed = packTransactions(items, (actions) => actions);

    // Assess
    expect(packed.map((chunk) => chunk.reduce((sum, actions) => sum + actions, 0))).toEqual([99, 31]);
    expect(packed.flat()).toEqual(items);
    expect(packTransactions([], (actions: number) => actions)).toEqual([]);
    expect(() => packTransactions([101], (actions) => actions)).toThrow(RangeError);
  });
});
