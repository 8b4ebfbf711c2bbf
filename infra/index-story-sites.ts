/**
 * The one-off backfill of the stories' site pages (indexStorySites): every story shared before
 * sites were kept gets its place on its site's page and in the site's count. Safe to run while
 * people share, and to run again.
 *
 *   AWS_REGION=eu-west-1 npx tsx infra/index-story-sites.ts <table name>   (the deploying credentials)
 *   npx tsx infra/index-story-sites.ts --local                             (the running `npm start`)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDocumentClient } from '../functions/lib/db/client';
import { createDb } from '../functions/lib/db/service';
import { indexStorySites } from '../functions/stories/lib/site-stories';
import { LOCAL_TABLE_NAME, REPO_ROOT } from './local/runtime';

const [target] = process.argv.slice(2);
if (!target) {
  console.error('Usage: npx tsx infra/index-story-sites.ts <table name> | --local');
  process.exit(2);
}

let endpoint: string | undefined;
if (target === '--local') {
  const endpointFile = join(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'), 'dynamodb', 'endpoint');
  try {
    endpoint = readFileSync(endpointFile, 'utf8').trim();
  } catch {
    console.error(`The local product is not running (no ${endpointFile}): start it with npm start.`);
    process.exit(1);
  }
}
const region = endpoint ? 'local' : process.env.AWS_REGION;
if (!region) {
  console.error('Set AWS_REGION to the region of the table.');
  process.exit(2);
}

// A bulk writer: its transactions may queue behind live traffic, so a handler's 5 s bound is too short.
const db = createDb(createDocumentClient({ endpoint, region, requestTimeout: 30_000 }), endpoint ? LOCAL_TABLE_NAME : target);
const say = (line: string) => process.stdout.write(`${line}\n`);
const indexed = await indexStorySites(db, { onProgress: (count) => say(`${count} stories indexed so far`) });
say(`Done: ${indexed} stories added to their sites' pages (the others were there already).`);
