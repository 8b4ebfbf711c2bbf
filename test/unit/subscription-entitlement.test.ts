import { describe, expect, it } from 'vitest';
import { endOfPaidDay, entitlementEndsAt, givesEntitlement, graceEndsAt } from '../../functions/lib/payments/entitlement';
import type { GatewaySubscription } from '../../functions/lib/payments/gateway';
import { gatewayVersionOf, stateFromGateway } from '../../functions/lib/payments/subscription-sync';

const GRACE_DAYS = 7;
const at = (iso: string) => new Date(iso);

describe('what a subscription gives, by its status and the clock', () => {
  it('gives it while active, whatever the dates say', () => {
    // Act / Assess
    expect(givesEntitlement({ status: 'Active', paidThroughDate: '2020-01-01' }, at('2026-11-26T12:00:00Z'), GRACE_DAYS)).toBe(
      true,
    );
  });

  it('keeps a past-due subscription for the grace period from when it went past due, and not a second longer', () => {
    // Prepare
    const pastDue = { status: 'Past Due' as const, pastDueSince: '2026-11-01T10:00:00.000Z' };

    // Act
    const ends = graceEndsAt(pastDue, GRACE_DAYS);

    // Assess
    expect(ends?.toISOString()).toBe('2026-11-08T10:00:00.000Z');
    expect(givesEntitlement(pastDue, at('2026-11-08T09:59:59.999Z'), GRACE_DAYS)).toBe(true);
    expect(givesEntitlement(pastDue, at('2026-11-08T10:00:00.000Z'), GRACE_DAYS)).toBe(false);
  });

  it('keeps a canceled one to the end of its last paid day, then ends it', () => {
    // Prepare
    const canceled = { status: 'Canceled' as const, paidThroughDate: '2026-12-25' };

    // Act / Assess
    expect(entitlementEndsAt(canceled, GRACE_DAYS)?.toISOString()).toBe('2026-12-26T00:00:00.000Z');
    expect(givesEntitlement(canceled, at('2026-12-25T23:59:59Z'), GRACE_DAYS)).toBe(true);
    expect(givesEntitlement(canceled, endOfPaidDay('2026-12-25'), GRACE_DAYS)).toBe(false);
  });

  it('keeps a resumed plan (Pending until its first charge) to the end of the paid time it carries over', () => {
    // Prepare
    const resumed = { status: 'Pending' as const, paidThroughDate: '2026-12-25' };

    // Act / Assess: it renews, so no end is shown; Pro holds through the last paid day
    expect(entitlementEndsAt(resumed, GRACE_DAYS)).toBeNull();
    expect(givesEntitlement(resumed, at('2026-12-25T23:59:59Z'), GRACE_DAYS)).toBe(true);
    expect(givesEntitlement(resumed, endOfPaidDay('2026-12-25'), GRACE_DAYS)).toBe(false);
  });

  it('gives nothing when pending or expired, or canceled before anything was paid', () => {
    // Act / Assess
    const now = at('2026-11-26T12:00:00Z');
    expect(givesEntitlement({ status: 'Pending' }, now, GRACE_DAYS)).toBe(false);
    expect(givesEntitlement({ status: 'Expired', paidThroughDate: '2030-01-01' }, now, GRACE_DAYS)).toBe(false);
    expect(givesEntitlement({ status: 'Canceled' }, now, GRACE_DAYS)).toBe(false);
  });
});

describe("our copy of the gateway's subscription", () => {
  const gateway = (overrides: Partial<GatewaySubscription>): GatewaySubscription => ({
    id: 's_1',
    planId: 'transfer-pro-monthly',
    status: 'Active',
    price: '12.00',
    currency: 'USD',
    paymentMethodToken: 'card-1',
    billingPeriodStartDate: '2026-11-26',
    billingPeriodEndDate: '2026-12-25',
    paidThroughDate: '2026-12-25',
    nextBillingDate: '2026-12-26',
    billingFrequency: 1,
    currentBillingCycle: 1,
    failureCount: 0,
    balance: '0.00',
    daysPastDue: 0,
    addOns: [],
    transactions: [],
    updatedAt: '2026-11-26T12:00:00Z',
    ...overrides,
  });
  const now = at('2026-12-27T09:00:00Z');

  it('keeps money in cents and takes the dates as the gateway gives them', () => {
    // Act
    const { set, remove } = stateFromGateway(gateway({}), undefined, now);

    // Assess
    expect(set).toMatchObject({ status: 'Active', priceMinor: 1200, balanceMinor: 0, paidThroughDate: '2026-12-25' });
    expect(remove).toEqual(['pastDueSince']);
  });

  it('dates a new past-due state from the declined charge, and keeps that date while it stays past due', () => {
    // Prepare
    const declined = gateway({
      status: 'Past Due',
      balance: '12.00',
      failureCount: 1,
      transactions: [
        { id: 't2', status: 'processor_declined', amount: '12.00', currency: 'USD', createdAt: '2026-12-26T00:00:05Z' },
      ],
    });

    // Act
    const first = stateFromGateway(declined, { status: 'Active' }, now);
    const later = stateFromGateway(
      declined,
      { status: 'Past Due', pastDueSince: '2026-12-26T00:00:05Z' },
      at('2027-01-02T00:00:00Z'),
    );

    // Assess
    expect(first.set).toMatchObject({ status: 'Past Due', pastDueSince: '2026-12-26T00:00:05Z', balanceMinor: 1200 });
    expect(later.set.pastDueSince).toBe('2026-12-26T00:00:05Z');
  });

  it('stamps a cancellation once and drops the next billing date', () => {
    // Act
    const { set, remove } = stateFromGateway(gateway({ status: 'Canceled', nextBillingDate: null }), { status: 'Active' }, now);
    const again = stateFromGateway(
      gateway({ status: 'Canceled', nextBillingDate: null }),
      { status: 'Canceled', canceledAt: '2026-12-01T00:00:00Z' },
      now,
    );

    // Assess
    expect(set.canceledAt).toBe(now.toISOString());
    expect(remove).toContain('nextBillingDate');
    expect(again.set.canceledAt).toBe('2026-12-01T00:00:00Z');
  });

  it('orders two states of the same second by what happened: a charge, then an end', () => {
    // Prepare: Braintree stamps changes to the second.
    const charge = { id: 't1', status: 'settled' as const, amount: '12.00', currency: 'USD', createdAt: '2026-12-26T00:00:05Z' };
    const pastDue = gateway({ status: 'Past Due', updatedAt: '2026-12-26T00:00:05Z' });
    const paidAgain = gateway({ status: 'Active', updatedAt: '2026-12-26T00:00:05Z', transactions: [charge] });
    const canceled = gateway({ status: 'Canceled', updatedAt: '2026-12-26T00:00:05Z', transactions: [charge] });
    const nextSecond = gateway({ status: 'Past Due', updatedAt: '2026-12-26T00:00:06Z' });

    // Act
    const versions = [pastDue, paidAgain, canceled, nextSecond].map(gatewayVersionOf);

    // Assess
    expect([...versions].sort()).toEqual(versions);
    expect(new Set(versions).size).toBe(4);
  });
});
