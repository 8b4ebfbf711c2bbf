import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATIONS_DOC_PATH, readRouteCosts, renderOperationsDoc, ROUTE_COSTS_PATH } from './route-costs';

/**
 * The second half of `npm run docs:costs`: once the route matrix has written docs/route-costs.json
 * from its run, rewrite the generated tables of docs/operations.md ("Cost drivers") from it.
 */
const costs = readRouteCosts();
writeFileSync(OPERATIONS_DOC_PATH, await renderOperationsDoc(readFileSync(OPERATIONS_DOC_PATH, 'utf8'), costs));
console.warn(
  `Wrote the cost tables of ${path.basename(OPERATIONS_DOC_PATH)} from ${path.basename(ROUTE_COSTS_PATH)} (${Object.keys(costs.routes).length} routes).`,
);
