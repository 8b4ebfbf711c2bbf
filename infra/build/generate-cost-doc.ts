import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  COST_PASSES,
  type CostPass,
  OPERATIONS_DOC_PATH,
  readPassUnits,
  readRouteCosts,
  renderOperationsDoc,
  routeCostsOf,
  ROUTE_COSTS_PATH,
  UPDATE_ROUTE_COSTS_VARIABLE,
  unmeasuredRoutes,
  writeRouteCosts,
} from './route-costs';

/**
 * `npm run docs:costs` (`--record`): runs every integration suite, then the route matrix, then the
 * route fuzz, one after the other (each starts a runtime of its own, and the machine's cores are
 * shared), each writing what it measured into one directory; merges the passes into
 * docs/route-costs.json; then rewrites the generated tables of docs/operations.md ("Cost
 * drivers") from it. Without `--record`, only the last step, from the committed file.
 */
if (process.argv.includes('--record')) {
  const directory = mkdtempSync(path.join(tmpdir(), 'route-costs-'));
  try {
    for (const file of Object.values(COST_PASSES)) {
      const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', file], {
        stdio: 'inherit',
        env: { ...process.env, [UPDATE_ROUTE_COSTS_VARIABLE]: directory },
      });
      if (run.status !== 0) throw new Error(`${file} failed (exit ${run.status}): nothing recorded.`);
    }
    const passes = Object.fromEntries(
      (Object.keys(COST_PASSES) as CostPass[]).map((pass) => [pass, readPassUnits(directory, pass)]),
    );
    await writeRouteCosts(routeCostsOf(passes));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const costs = readRouteCosts();
writeFileSync(OPERATIONS_DOC_PATH, await renderOperationsDoc(readFileSync(OPERATIONS_DOC_PATH, 'utf8'), costs));
console.warn(
  `Wrote the cost tables of ${path.basename(OPERATIONS_DOC_PATH)} from ${path.basename(ROUTE_COSTS_PATH)} ` +
    `(${Object.keys(costs.routes).length} routes measured, ${unmeasuredRoutes(costs).length} not).`,
);
