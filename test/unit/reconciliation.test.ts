import { describe, expect, it } from 'vitest';
import type {
  GatewayListedRefund,
  GatewayListedTransaction,
  GatewaySubscriptionSummary,
  TimeWindow,
} from '../../functions/lib/payments/gateway';
import {
  compareCharges,
  compareRefunds,
  compareSubscriptions,
  dailyWindow,
  lastDayWindow,
  reconcile,
  type RecordedCharge,
  type RecordedRefund,
  type RecordedSubscription,
  windowProblem,
} from '../../functions/lib/payments/reconciliation';

const WINDOW: TimeWindow = { from: '2026-05-01T00:00:00.000Z', to: '2026-05-02T00:00:00.000Z' };

const charge = (overrides: Partial<GatewayListedTransaction> = {}): GatewayListedTransaction => ({
  id: 'txn-1',
  status: 'submitted_for_settlement',
  amount: '12.00',
  currency: 'USD',
  createdAt: '2026-05-01T10:00:00.000Z',
  subscriptionId: 's_inv-1',
  ...overrides,
});

const record = (overrides: Partial<RecordedCharge> = {}): RecordedCharge => ({
  transactionId: 'txn-1',
  customerId: 'user-1',
  subscriptionId: 's_inv-1',
  invoiceId: 'inv-1',
  amountMinor: 1_200,
  currency: 'USD',
  chargedAt: '2026-05-01T10:00:00.000Z',
  ...overrides,
});

const ours = (overrides: Partial<RecordedSubscription> = {}): RecordedSubscription => ({
  subscriptionId: 's_inv-1',
  customerId: 'user-1',
  status: 'Active',
  ...overrides,
});

const theirs = (overrides: Partial<GatewaySubscriptionSummary> = {}): GatewaySubscriptionSummary => ({
  id: 's_inv-1',
  planId: 'pro-monthly',
  status: 'Active',
  updatedAt: '2026-05-01T10:00:00.000Z',
  ...overrides,
});

describe('charges: our payment records against the gateway’s sales of the window', () => {
  it('finds nothing when every charge that took money has its record, with the same amount and currency', () => {
    // Act
    const differences = compareCharges({
      window: WINDOW,
      ours: [record(), record({ transactionId: 'txn-2', amountMinor: 900, chargedAt: '2026-05-01T23:59:59.999Z' })],
      gateway: [
        charge(),
        charge({ id: 'txn-2', status: 'settled', amount: '9.00', createdAt: '2026-05-01T23:59:59.999Z' }),
        // Declined attempts took nothing: no record is expected of them.
        charge({ id: 'txn-3', status: 'processor_declined' }),
        charge({ id: 'txn-4', status: 'gateway_rejected' }),
      ],
    });

    // Assess
    expect(differences).toEqual([]);
  });

  it.each(['authorized', 'submitted_for_settlement', 'settling', 'settled'] as const)(
    'reports a %s charge with no record of ours as charge_not_recorded, with the gateway’s side only',
    (status) => {
      // Act
      const differences = compareCharges({
        window: WINDOW,
        ours: [],
        gateway: [charge({ id: 'txn-9', status, orderId: 'inv-9', subscriptionId: undefined, amount: '30.00' })],
      });

      // Assess
      expect(differences).toEqual([
        {
          kind: 'charge_not_recorded',
          transactionId: 'txn-9',
          orderId: 'inv-9',
          gateway: { status, amountMinor: 3_000, currency: 'USD', at: '2026-05-01T10:00:00.000Z' },
        },
      ]);
    },
  );

  it.each(['processor_declined', 'gateway_rejected', 'failed', 'voided'] as const)(
    'does not ask for a record of a %s charge, which took no money',
    (status) => {
      // Act / Assess
      expect(compareCharges({ window: WINDOW, ours: [], gateway: [charge({ status })] })).toEqual([]);
    },
  );

  it('reports a record the gateway did not list as missing_at_gateway, with our side only', () => {
    // Act
    const differences = compareCharges({ window: WINDOW, ours: [record()], gateway: [] });

    // Assess
    expect(differences).toEqual([
      {
        kind: 'record_without_charge',
        mismatch: 'missing_at_gateway',
        transactionId: 'txn-1',
        subscriptionId: 's_inv-1',
        customerId: 'user-1',
        ours: { amountMinor: 1_200, currency: 'USD', at: '2026-05-01T10:00:00.000Z' },
      },
    ]);
  });

  it('reports a record whose charge was declined or voided at the gateway as not_money_taken', () => {
    // Act
    const differences = compareCharges({ window: WINDOW, ours: [record()], gateway: [charge({ status: 'voided' })] });

    // Assess
    expect(differences).toMatchObject([
      { kind: 'record_without_charge', mismatch: 'not_money_taken', transactionId: 'txn-1', gateway: { status: 'voided' } },
    ]);
  });

  it('reports another amount as amount_differs and another currency as currency_differs, with both sides', () => {
    // Act
    const differences = compareCharges({
      window: WINDOW,
      ours: [record(), record({ transactionId: 'txn-2', currency: 'EUR' })],
      gateway: [charge({ amount: '12.01' }), charge({ id: 'txn-2' })],
    });

    // Assess
    expect(differences).toEqual([
      expect.objectContaining({
        mismatch: 'amount_differs',
        transactionId: 'txn-1',
        ours: expect.objectContaining({ amountMinor: 1_200 }),
        gateway: expect.objectContaining({ amountMinor: 1_201 }),
      }),
      expect.objectContaining({
        mismatch: 'currency_differs',
        transactionId: 'txn-2',
        ours: expect.objectContaining({ currency: 'EUR' }),
        gateway: expect.objectContaining({ currency: 'USD' }),
      }),
    ]);
  });

  it('keeps to the window: from included, to left out, on both sides', () => {
    // Prepare
    const atEnd = '2026-05-02T00:00:00.000Z';
    const atStart = WINDOW.from;

    // Act
    const differences = compareCharges({
      window: WINDOW,
      ours: [
        record({ transactionId: 'ours-at-end', chargedAt: atEnd }),
        record({ transactionId: 'ours-at-start', chargedAt: atStart }),
      ],
      gateway: [charge({ id: 'theirs-at-end', createdAt: atEnd }), charge({ id: 'theirs-at-start', createdAt: atStart })],
    });

    // Assess
    expect(differences.map((difference) => [difference.kind, difference.transactionId])).toEqual([
      ['charge_not_recorded', 'theirs-at-start'],
      ['record_without_charge', 'ours-at-start'],
    ]);
  });

  it('counts a record from outside the window (looked up by id) as the record of a charge in it, and never reports it on its own', () => {
    // Act
    const differences = compareCharges({
      window: WINDOW,
      ours: [
        record({ chargedAt: '2026-04-30T23:59:00.000Z' }),
        record({ transactionId: 'another-day', chargedAt: '2026-04-29T10:00:00.000Z' }),
      ],
      gateway: [charge()],
    });

    // Assess
    expect(differences).toEqual([]);
  });
});

describe('subscriptions: our stored status against the gateway’s', () => {
  it('finds nothing when both sides know each subscription with one status', () => {
    // Act / Assess
    expect(
      compareSubscriptions({
        ours: [ours(), ours({ subscriptionId: 's_2', status: 'Canceled' })],
        gateway: [theirs(), theirs({ id: 's_2', status: 'Canceled' })],
      }),
    ).toEqual([]);
  });

  it('reports a status that differs, with both statuses', () => {
    // Act
    const differences = compareSubscriptions({ ours: [ours({ status: 'Canceled' })], gateway: [theirs({ status: 'Active' })] });

    // Assess
    expect(differences).toEqual([
      {
        kind: 'subscription_status_differs',
        subscriptionId: 's_inv-1',
        customerId: 'user-1',
        ours: { status: 'Canceled' },
        gateway: { status: 'Active' },
      },
    ]);
  });

  it('reports a subscription only one side knows, with nothing on the other side', () => {
    // Act
    const differences = compareSubscriptions({
      ours: [ours({ subscriptionId: 'only-ours' })],
      gateway: [theirs({ id: 'only-theirs', status: 'Past Due' })],
    });

    // Assess
    expect(differences).toEqual([
      { kind: 'subscription_status_differs', subscriptionId: 'only-ours', customerId: 'user-1', ours: { status: 'Active' } },
      { kind: 'subscription_status_differs', subscriptionId: 'only-theirs', gateway: { status: 'Past Due' } },
    ]);
  });
});

describe('a whole reconciliation', () => {
  it('orders the differences by kind, then time, and counts what it compared', () => {
    // Act
    const outcome = reconcile({
      window: WINDOW,
      recordedCharges: [
        record({ transactionId: 'lost-late', chargedAt: '2026-05-01T20:00:00.000Z' }),
        record({ transactionId: 'lost-early', chargedAt: '2026-05-01T08:00:00.000Z' }),
        record({ transactionId: 'matched' }),
      ],
      gatewayCharges: [charge({ id: 'unrecorded' }), charge({ id: 'matched' }), charge({ id: 'declined', status: 'failed' })],
      recordedSubscriptions: [ours({ status: 'Past Due' })],
      gatewaySubscriptions: [theirs()],
    });

    // Assess
    expect(
      outcome.differences.map((difference) => [difference.kind, difference.transactionId ?? difference.subscriptionId]),
    ).toEqual([
      ['charge_not_recorded', 'unrecorded'],
      ['record_without_charge', 'lost-early'],
      ['record_without_charge', 'lost-late'],
      ['subscription_status_differs', 's_inv-1'],
    ]);
    expect(outcome.counts).toEqual({ recordedCharges: 3, gatewayCharges: 2, subscriptions: 1, recordedRefunds: 0, gatewayRefunds: 0 });
  });
});

describe('windows', () => {
  it('reconciles, each day, the last whole UTC day that ended at least 15 minutes ago', () => {
    // Act / Assess
    expect(dailyWindow(new Date('2026-05-02T06:00:00Z'))).toEqual({
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-05-02T00:00:00.000Z',
    });
    expect(dailyWindow(new Date('2026-05-02T00:10:00Z'))).toEqual({
      from: '2026-04-30T00:00:00.000Z',
      to: '2026-05-01T00:00:00.000Z',
    });
    expect(dailyWindow(new Date('2026-05-02T00:15:00Z')).from).toBe('2026-05-01T00:00:00.000Z');
  });

  it('defaults an on-demand run to the 24 hours up to now', () => {
    // Act / Assess
    expect(lastDayWindow(new Date('2026-05-02T06:30:00Z'))).toEqual({
      from: '2026-05-01T06:30:00.000Z',
      to: '2026-05-02T06:30:00.000Z',
    });
  });

  it('refuses a window that ends before it starts, spans more than 31 days, or is not made of times', () => {
    // Act / Assess
    expect(windowProblem(WINDOW)).toBeUndefined();
    expect(windowProblem({ from: WINDOW.to, to: WINDOW.from })).toMatch(/end after it starts/);
    expect(windowProblem({ from: '2026-01-01T00:00:00Z', to: '2026-02-02T00:00:01Z' })).toMatch(/31 days/);
    expect(windowProblem({ from: 'yesterday', to: WINDOW.to })).toMatch(/ISO 8601/);
  });
});

const credit = (overrides: Partial<GatewayListedRefund> = {}): GatewayListedRefund => ({
  id: 'cr-1',
  status: 'submitted_for_settlement',
  amount: '5.00',
  currency: 'USD',
  createdAt: '2026-05-01T12:00:05.000Z',
  refundedTransactionId: 'txn-1',
  orderId: 'txn-1_r1',
  ...overrides,
});

const ourRefund = (overrides: Partial<RecordedRefund> = {}): RecordedRefund => ({
  key: 'txn-1_r1',
  transactionId: 'txn-1',
  customerId: 'user-1',
  operation: 'refund',
  status: 'succeeded',
  amountMinor: 500,
  currency: 'USD',
  gatewayId: 'cr-1',
  createdAt: '2026-05-01T12:00:00.000Z',
  ...overrides,
});

describe('refunds: our refunds and voids against the gateway’s refunds of the window', () => {
  it('finds nothing when each refund matches by key, and a void of ours has voided its charge', () => {
    // Act
    const differences = compareRefunds({
      window: WINDOW,
      ours: [ourRefund(), ourRefund({ key: 'txn-2_r1', transactionId: 'txn-2', operation: 'void', gatewayId: 'txn-2' })],
      gateway: [credit()],
      chargeStatuses: new Map([['txn-2', 'voided']]),
    });

    // Assess
    expect(differences).toEqual([]);
  });

  it('matches across windows: ours asked at 23:59:59, the gateway’s made after midnight, in either window', () => {
    // Prepare
    const late = ourRefund({ createdAt: '2026-05-01T23:59:59.900Z' });
    const early = credit({ createdAt: '2026-05-02T00:00:00.300Z' });
    const nextDay = { from: '2026-05-02T00:00:00.000Z', to: '2026-05-03T00:00:00.000Z' };

    // Act
    const today = compareRefunds({ window: WINDOW, ours: [late], gateway: [early], chargeStatuses: new Map() });
    const tomorrow = compareRefunds({ window: nextDay, ours: [late], gateway: [early], chargeStatuses: new Map() });

    // Assess
    expect(today).toEqual([]);
    expect(tomorrow).toEqual([]);
  });

  it('reports the parent, amount and currency a refund differs by, a void whose charge is not voided, and one the gateway does not know', () => {
    // Act
    const differences = compareRefunds({
      window: WINDOW,
      ours: [
        ourRefund({ key: 'a_r1', transactionId: 'a' }),
        ourRefund({ key: 'b_r1', transactionId: 'b', amountMinor: 400 }),
        ourRefund({ key: 'c_r1', transactionId: 'c', operation: 'void' }),
        ourRefund({ key: 'd_r1', transactionId: 'd', operation: 'void' }),
      ],
      gateway: [
        credit({ id: 'cr-a', orderId: 'a_r1', refundedTransactionId: 'other' }),
        credit({ id: 'cr-b', orderId: 'b_r1', refundedTransactionId: 'b' }),
      ],
      chargeStatuses: new Map([
        ['c', 'settled'],
        ['d', null],
      ]),
    });

    // Assess
    expect(differences.map((difference) => [difference.refundId, difference.kind, difference.mismatch])).toEqual([
      ['a_r1', 'record_without_refund', 'parent_differs'],
      ['b_r1', 'record_without_refund', 'amount_differs'],
      ['c_r1', 'record_without_refund', 'not_voided'],
      ['d_r1', 'record_without_refund', 'missing_at_gateway'],
    ]);
  });

  it('reports a gateway refund with no record, or whose record says it failed; leaves one under way and a voided credit alone', () => {
    // Act
    const differences = compareRefunds({
      window: WINDOW,
      ours: [
        ourRefund({ key: 'f_r1', transactionId: 'f', status: 'failed' }),
        ourRefund({ key: 'p_r1', transactionId: 'p', status: 'pending' }),
      ],
      gateway: [
        credit({ id: 'cr-x', orderId: 'made-in-the-control-panel', refundedTransactionId: 'x' }),
        credit({ id: 'cr-f', orderId: 'f_r1', refundedTransactionId: 'f' }),
        credit({ id: 'cr-p', orderId: 'p_r1', refundedTransactionId: 'p' }),
        credit({ id: 'cr-v', orderId: 'v_r1', refundedTransactionId: 'v', status: 'voided' }),
      ],
      chargeStatuses: new Map(),
    });

    // Assess
    expect(differences).toEqual([
      expect.objectContaining({ kind: 'refund_not_recorded', refundTransactionId: 'cr-x', transactionId: 'x' }),
      expect.objectContaining({
        kind: 'refund_not_recorded',
        refundTransactionId: 'cr-f',
        refundId: 'f_r1',
        ours: expect.objectContaining({ status: 'failed' }),
      }),
    ]);
  });

  it('counts a charge voided by a void of ours as consistent, and one voided without it as taking no money', () => {
    // Act
    const differences = compareCharges({
      window: WINDOW,
      ours: [record(), record({ transactionId: 'txn-2' })],
      gateway: [charge({ status: 'voided' }), charge({ id: 'txn-2', status: 'voided' })],
      voidedByUs: new Set(['txn-1']),
    });

    // Assess
    expect(differences).toEqual([expect.objectContaining({ transactionId: 'txn-2', mismatch: 'not_money_taken' })]);
  });
});
