import { describe, expect, it } from 'vitest';
import { accessOf, downloadsLeft, isRefunded } from '../../functions/penpay/lib/digital-access';

const order = { totalMinor: 4_000 };
const facts = {
  order,
  productStockGradeId: 'grd_a',
  billing: 'once' as const,
  entitled: false,
  downloadsTaken: 0,
  downloadLimit: 5,
};

describe('isRefunded', () => {
  it('keeps access while nothing, or only part of the order for other grades, was refunded', () => {
    // Act / Assess
    expect(isRefunded(order, 'grd_a')).toBe(false);
    expect(isRefunded({ ...order, refundedMinor: 0 }, 'grd_a')).toBe(false);
    expect(isRefunded({ ...order, refundedMinor: 1_000, refundedGradeIds: ['grd_b'] }, 'grd_a')).toBe(false);
  });

  it('withdraws access once refunds reach the order’s total, or the grade’s line was refunded', () => {
    // Act / Assess
    expect(isRefunded({ ...order, refundedMinor: 4_000 }, 'grd_a')).toBe(true);
    expect(isRefunded({ ...order, refundedMinor: 4_500 }, 'grd_a')).toBe(true);
    expect(isRefunded({ ...order, refundedMinor: 1_000, refundedGradeIds: ['grd_a'] }, 'grd_a')).toBe(true);
  });
});

describe('accessOf', () => {
  it('is available for a one-time grade with downloads left, whatever the subscription flag', () => {
    expect(accessOf(facts)).toBe('available');
  });

  it('is used-up once the downloads taken reach the limit', () => {
    expect(accessOf({ ...facts, downloadsTaken: 5 })).toBe('used-up');
  });

  it('follows entitlement for a subscription grade', () => {
    expect(accessOf({ ...facts, billing: 'subscription', entitled: true })).toBe('available');
    expect(accessOf({ ...facts, billing: 'subscription', entitled: false })).toBe('subscription-ended');
  });

  it('says refunded before anything else', () => {
    expect(accessOf({ ...facts, order: { ...order, refundedMinor: 4_000 }, billing: 'subscription', downloadsTaken: 9 })).toBe(
      'refunded',
    );
  });
});

describe('downloadsLeft', () => {
  it('never goes below zero', () => {
    expect(downloadsLeft(2, 5)).toBe(3);
    expect(downloadsLeft(7, 5)).toBe(0);
  });
});
