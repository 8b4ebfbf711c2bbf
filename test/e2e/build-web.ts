import { ensureWebBuilt } from '../../infra/local/web-build';

/**
 * The e2e run tests the production build, served by the local runtime as CloudFront would:
 * built when missing or older than its sources, as `npm start` does.
 */
export default async function setup() {
  await ensureWebBuilt({ log: () => undefined });
}
