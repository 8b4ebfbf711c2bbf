/**
 * Samples the process's resident memory every 50 ms while running: the peak of what ran while
 * sampling (pause it before work that is not measured, such as a comparison in the same process).
 */
export function memoryPeak() {
  let peak = process.memoryUsage().rss;
  let sampling = true;
  const timer = setInterval(() => {
    if (sampling) peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  timer.unref();
  return {
    pause: () => {
      if (sampling) peak = Math.max(peak, process.memoryUsage().rss);
      sampling = false;
    },
    peakMb: () => peak / 1024 / 1024,
    stop: () => clearInterval(timer),
  };
}
