/**
 * `npm run app:register -- <appId> "<name>" [origin ...]`: registers a server-side app with the
 * local database (start the product first) and prints its private token once. Only its hash is
 * kept. The origins are where the app receives single sign-on codes (e.g. https://app.example.com):
 * sign-on sends codes only to registered origins, and only the app registered for a code's origin
 * can exchange it. Registering again replaces the token and the origins.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, LOCAL_TABLE_NAME } from './runtime';

const [appId, name, ...origins] = process.argv.slice(2);
if (!appId || !/^[a-z0-9_]{3,64}$/.test(appId) || !name) {
  console.error('Usage: npm run app:register -- <app_id (a-z, 0-9, _)> "<name>" [https://origin.example ...]');
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
let token: string;
try {
  token = await registerAppClient(appId, name, origins);
} catch (error) {
  console.error(`Could not register ${appId}: ${(error as Error).message}`);
  process.exit(1);
}
const where = origins.length > 0 ? ` for ${origins.join(', ')}` : ' (no sign-on origins)';
console.log(`Registered ${appId}${where}. Its token, shown only now:\n${token}`);
