import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { InfraRoute } from './route-stack';

/** Requests per client IP per 5 minutes on the costly routes: ~1 a second, far above a person. */
export const COSTLY_ROUTE_LIMIT_PER_5_MINUTES = 300;

/**
 * Rules of AWS's common rule set that would block the product's own traffic, counted instead:
 * - SizeRestrictions_BODY blocks bodies over 8 KB, and the ingestion API takes up to 1 MB;
 * - GenericRFI_QUERYARGUMENTS and GenericRFI_BODY block any URL in a parameter, and single
 *   sign-on and OAuth carry return URLs there by design.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY', 'GenericRFI_QUERYARGUMENTS', 'GenericRFI_BODY'] as const;

/** Routes whose calls cost money or reputation per request: they send email or ask reCAPTCHA. */
export function costlyRoutes(routes: readonly InfraRoute[]): InfraRoute[] {
  return routes.filter((route) => route.capabilities.email || route.capabilities.settings.includes('recaptcha'));
}

export interface WafStackProps extends StackProps {
  /** The routes to protect: those that send email or call a paid service are rate-limited per IP. */
  costlyRoutes: readonly InfraRoute[];
}

/**
 * The optional web ACL in front of CloudFront. CloudFront only takes web ACLs made in us-east-1,
 * and the other stacks are region-agnostic, so this one deploys on its own (infra/cdk/waf-app.ts)
 * and the main app attaches it by ARN (`-c webAclArn=`).
 */
export class WafStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: WafStackProps) {
    super(scope, id, props);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    const exactPath = (path: string): wafv2.CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'EXACTLY',
        searchString: path,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const paths = [...new Set(props.costlyRoutes.map((route) => route.path))];
    if (paths.length === 0) throw new Error('The WAF needs at least one costly route to rate-limit');

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('toppubs-web-acl'),
      rules: [
        {
          name: 'costly-routes-per-ip',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: COSTLY_ROUTE_LIMIT_PER_5_MINUTES,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement:
                paths.length === 1 ? exactPath(paths[0] as string) : { orStatement: { statements: paths.map(exactPath) } },
            },
          },
          visibilityConfig: visibility('costly-routes-per-ip'),
        },
        {
          name: 'aws-common-rule-set',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility('aws-common-rule-set'),
        },
      ],
    });

    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}
