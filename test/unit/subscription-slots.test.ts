import { describe, expect, it } from 'vitest';
import { LIVE_WHILE_RENEWING, liveUntilOf, planFamilyOf } from '../../functions/lib/payments/subscription-slots';

const NOW = new Date('2026-12-06T12:00:00.000Z');

describe('plan families', () => {
  it('makes the monthly and the yearly Pro one family, and each grade of a shop its own', () => {
    // Act
    const monthly = planFamilyOf({ sellerId: 'platform', productId: 'transfer-pro', priceId: 'pro-monthly' });
    const yearly = planFamilyOf({ sellerId: 'platform', productId: 'transfer-pro', priceId: 'pro-yearly' });
    const small = planFamilyOf({ sellerId: 'mer_1', productId: 'pst_1', priceId: 'grd_small' });
    const large = planFamilyOf({ sellerId: 'mer_1', productId: 'pst_1', priceId: 'grd_large' });

    // Assess
    expect(monthly).toBe(yearly);
    expect(small).not.toBe(large);
  });
});

describe('how long a subscription holds its place', () => {
  it.each([
    ['Active', {}, LIVE_WHILE_RENEWING],
    ['Pending', {}, LIVE_WHILE_RENEWING],
    ['Past Due', { pastDueSince: '2026-12-01T12:00:00.000Z' }, '2026-12-08T12:00:00.000Z'],
    ['Canceled', { paidThroughDate: '2026-12-20' }, '2026-12-21T00:00:00.000Z'],
    ['Canceled', { paidThroughDate: '2026-11-20' }, NOW.toISOString()],
    ['Canceled', {}, NOW.toISOString()],
    ['Expired', { paidThroughDate: '2026-12-20' }, NOW.toISOString()],
  ] as const)('%s %o: until %s', (status, fields, expected) => {
    // Act
    const until = liveUntilOf({ status, ...fields }, NOW);

    // Assess
    expect(until).toBe(expected);
  });
});
