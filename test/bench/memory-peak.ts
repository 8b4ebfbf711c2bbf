/** Samples the process's resident memory every 50 ms: the peak of what ran since the last reset. */
export function memoryPeak() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  timer.unref();
  return {
    reset: () => {
      peak = process.memoryUsage().rss;
    },
    peakMb: () => Math.max(peak, process.memoryUsage().rss) / 1024 / 1024,
    stop: () => clearInterval(timer),
  };
}
