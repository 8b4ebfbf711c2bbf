import { launchBrowser } from '../support/browser';
import { print, verdict } from './support';

const LCP_RUNS = 5;

interface LoadFigures {
  lcpMs: number;
  jsBytes: number;
  cssBytes: number;
}

/** One cold load of a page: what it downloaded (compressed, as served) and its LCP. */
async function coldLoad(url: string): Promise<LoadFigures> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    return await page.evaluate(
      () =>
        new Promise<LoadFigures>((resolve) => {
          let lcp = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          // LCP entries are buffered: give the observer a frame to deliver them.
          requestAnimationFrame(() =>
            setTimeout(() => {
              const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
              const sum = (extension: RegExp) =>
                resources
                  .filter((entry) => extension.test(new URL(entry.name).pathname))
                  .reduce((total, entry) => total + entry.encodedBodySize, 0);
              resolve({ lcpMs: lcp, jsBytes: sum(/\.m?js$/), cssBytes: sum(/\.css$/) });
            }, 100),
          );
        }),
    );
  } finally {
    await browser.close();
  }
}

export async function benchWeb(baseUrl: string): Promise<void> {
  const runs: LoadFigures[] = [];
  for (let run = 0; run < LCP_RUNS; run += 1) runs.push(await coldLoad(`${baseUrl}/`));
  const first = runs[0] as LoadFigures;
  const lcps = runs.map((run) => run.lcpMs).sort((a, b) => a - b);
  const medianLcp = lcps[Math.floor(lcps.length / 2)] as number;
  const jsKb = first.jsBytes / 1024;
  const cssKb = first.cssBytes / 1024;
  print(`home route first-load JavaScript ${jsKb.toFixed(1)} KB gzip (target <= 150 KB): ${verdict(jsKb <= 150)}`);
  print(`home route CSS ${cssKb.toFixed(1)} KB gzip (target <= 30 KB): ${verdict(cssKb <= 30)}`);
  print(
    `Largest Contentful Paint, median of ${LCP_RUNS} cold loads ${medianLcp.toFixed(0)} ms (runs: ${lcps.map((lcp) => lcp.toFixed(0)).join(', ')}) (target <= 1000 ms): ${verdict(medianLcp <= 1000)}`,
  );
}
