interface Watch {
  readonly deadline: number;
  readonly onExpired: () => void;
}

/**
 * The timeouts of the local invocations in flight, on one timer armed for the earliest of them.
 * A timer per call (setTimeout, then clearTimeout when it answers) cost several microseconds of
 * every local request, and nearly every call answers long before its deadline.
 */
export class DeadlineTimer {
  private readonly pending = new Set<Watch>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** Calls `onExpired` once `deadline` (the clock's milliseconds) passes, unless cancelled first. */
  watch(deadline: number, onExpired: () => void): Watch {
    const watch = { deadline, onExpired };
    this.pending.add(watch);
    if (deadline < this.armedFor) this.arm(deadline);
    return watch;
  }

  cancel(watch: Watch): void {
    // The timer is left armed: disarming when the last call answers and arming again for the
    // next would bring back the per-call timer this class exists to avoid. It is unref'd, so it
    // never keeps an idle process alive, and finding nothing due it simply stops.
    this.pending.delete(watch);
  }

  private arm(deadline: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(0, deadline - this.now()));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const watch of [...this.pending]) {
      if (watch.deadline <= now) {
        this.pending.delete(watch);
        watch.onExpired();
      } else if (watch.deadline < next) {
        next = watch.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}
