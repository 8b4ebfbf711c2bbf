import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimer } from '../../infra/local/deadline-timer';

describe('DeadlineTimer (the local invocations’ timeouts on one timer)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires a watch at its deadline and not before', () => {
    // Prepare
    const timer = new DeadlineTimer();
    const expired = vi.fn();
    timer.watch(Date.now() + 100, expired);

    // Act
    vi.advanceTimersByTime(99);
    const before = expired.mock.calls.length;
    vi.advanceTimersByTime(1);

    // Assess
    expect(before).toBe(0);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('never expires a watch cancelled first, and still expires the others on time', () => {
    // Prepare
    const timer = new DeadlineTimer();
    const answered = vi.fn();
    const stuck = vi.fn();
    const first = timer.watch(Date.now() + 100, answered);
    timer.watch(Date.now() + 200, stuck);

    // Act
    timer.cancel(first);
    vi.advanceTimersByTime(150);
    const stuckAt150 = stuck.mock.calls.length;
    vi.advanceTimersByTime(50);

    // Assess
    expect(answered).not.toHaveBeenCalled();
    expect(stuckAt150).toBe(0);
    expect(stuck).toHaveBeenCalledTimes(1);
  });

  it('expires a shorter deadline watched after a longer one at its own time', () => {
    // Prepare
    const timer = new DeadlineTimer();
    const order: string[] = [];
    timer.watch(Date.now() + 29_000, () => order.push('integration'));
    timer.watch(Date.now() + 50, () => order.push('function'));

    // Act
    vi.advanceTimersByTime(50);
    const afterFifty = [...order];
    vi.advanceTimersByTime(29_000);

    // Assess
    expect(afterFifty).toEqual(['function']);
    expect(order).toEqual(['function', 'integration']);
  });

  it('holds no timer that keeps the process alive', () => {
    // Prepare
    const timer = new DeadlineTimer();

    // Act
    timer.watch(Date.now() + 1_000, () => undefined);

    // Assess: one timer is armed, and it is unref'd.
    expect(vi.getTimerCount()).toBe(1);
    expect((timer as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false);
  });
});
