/**
 * `npm run app:register -- <appId> "<name>"`: registers a server-side app with the local
 * database (start the product first) and prints its private token once. Only its hash is kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, LOCAL_TABLE_NAME } from './runtime';

const [appId, name] = process.argv.slice(2);
if (!appId || !/^[a-z0-9_]{3,64}$/.test(appId) || !name) {
  console.error('Usage: npm run app:register -- <app_id (a-z, 0-9, _)> "<name>"');
  process.exit(2);
}

const dataDir = process.env.DATA_DIR ?? join(REPO_ROOT, '.data');
let endpoint: string;
try {
  endpoint = readFileSync(join(dataDir, 'dynamodb', 'endpoint'), 'utf8').trim();
} catch {
  console.error(`The local product is not running (no ${join(dataDir, 'dynamodb', 'endpoint')}): start it with npm start.`);
  process.exit(1);
}

Object.assign(process.env, {
  TABLE_NAME: LOCAL_TABLE_NAME,
  ALLOWED_ORIGINS: 'http://localhost',
  DYNAMODB_ENDPOINT: endpoint,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});
const { registerAppClient } = await import('../../functions/lib/app-auth');
const token = await registerAppClient(appId, name);
console.log(`Registered ${appId}. Its token, shown only now:\n${token}`);
