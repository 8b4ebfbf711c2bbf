import { buildWeb } from '../../infra/local/web-build';

/** The e2e run tests the production build, served by the local runtime as CloudFront would. */
export default async function setup() {
  await buildWeb({ log: () => undefined });
}
