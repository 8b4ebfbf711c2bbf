import { App } from 'aws-cdk-lib';
import { APP_NAME } from '../../shared/constants';
import { routeEntries } from '../../shared/routes/index';
import { costlyRoutes, WafStack } from './stacks/waf-stack';

/**
 * The optional web ACL, deployed on its own in us-east-1 (CloudFront's region for WAF):
 *   npx cdk deploy -a "npx tsx infra/cdk/waf-app.ts" -c stage=prod
 * then pass its WebAclArn output to the main app as -c webAclArn=… . See docs/operations.md.
 */
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
new WafStack(app, `${APP_NAME}-${stage}-Waf`, {
  env: { region: 'us-east-1' },
  costlyRoutes: costlyRoutes(routeEntries.map(([, route]) => route)),
});
