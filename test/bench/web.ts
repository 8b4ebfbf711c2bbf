import { findChromium, launchBrowser } from '../support/browser';
import { print, verdict } from './support';

const LCP_RUNS = 5;

interface LoadFigures {
  lcpMs: number;
  jsBytes: number;
  cssBytes: number;
}

interface ColdLoad extends LoadFigures {
  browserVersion: string;
}

/** One cold load of a page: what it downloaded (compressed, as served) and its LCP. */
async function coldLoad(url: string): Promise<ColdLoad> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    // Plain string: tsx compiles with keepNames, and the __name() helper it would inject into a
    // function passed to page.evaluate does not exist in the page.
    const figures = page.evaluate(`new Promise((resolve) => {
      let lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      requestAnimationFrame(() => setTimeout(() => {
        let jsBytes = 0;
        let cssBytes = 0;
        for (const entry of performance.getEntriesByType('resource')) {
          const path = new URL(entry.name).pathname;
          if (/\\.m?js$/.test(path)) jsBytes += entry.encodedBodySize;
          if (/\\.css$/.test(path)) cssBytes += entry.encodedBodySize;
        }
        resolve({ lcpMs: lcp, jsBytes, cssBytes });
      }, 100));
    })`) as Promise<LoadFigures>;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('The page did not report its figures within 15 s')), 15_000);
    });
    try {
      return { ...(await Promise.race([figures, timeout])), browserVersion: browser.version() };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await browser.close();
  }
}

export async function benchWeb(baseUrl: string): Promise<void> {
  const runs: ColdLoad[] = [];
  for (let run = 0; run < LCP_RUNS; run += 1) runs.push(await coldLoad(`${baseUrl}/?analytics=on`));
  const first = runs[0] as ColdLoad;
  // LCP depends on the browser build, so the figures say which one measured them.
  print(`browser: Chromium ${first.browserVersion} from ${(await findChromium()).label}`);
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
