import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../infra/cdk/platform';
import { COSTLY_ROUTE_LIMIT_PER_5_MINUTES, COUNTED_COMMON_RULES, costlyRoutes, WafStack } from '../../infra/cdk/stacks/waf-stack';
import { routeEntries, routes } from '../../shared/routes/index';
import { testApp } from '../support/cdk-templates';

const WEB_ACL_ARN = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/toppubs/abc-123';
const missingWebDist = path.join(mkdtempSync(path.join(tmpdir(), 'toppubs-web-')), 'missing');
afterAll(() => rmSync(path.dirname(missingWebDist), { recursive: true, force: true }));

function wafTemplate(): Template {
  const app = testApp();
  const stack = new WafStack(app, 'TopPubs-test-Waf', {
    env: { region: 'us-east-1' },
    costlyRoutes: costlyRoutes(routeEntries.map(([, route]) => route)),
  });
  return Template.fromStack(stack);
}

describe('the optional WAF', () => {
  it('rate-limits per IP exactly the routes that send email or ask reCAPTCHA, and blocks above the limit', () => {
    // Prepare
    const template = wafTemplate();
    const acl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0]?.Properties as {
      Scope: string;
      Rules: { Name: string; Action?: unknown; Statement: { RateBasedStatement?: Record<string, unknown> } }[];
    };
    const rateRule = acl.Rules.find((rule) => rule.Name === 'costly-routes-per-ip');
    const scoped = JSON.stringify(rateRule?.Statement.RateBasedStatement?.ScopeDownStatement);

    // Assess
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(rateRule?.Action).toEqual({ Block: {} });
    expect(rateRule?.Statement.RateBasedStatement).toMatchObject({
      Limit: COSTLY_ROUTE_LIMIT_PER_5_MINUTES,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'IP',
    });
    const costly = costlyRoutes(routeEntries.map(([, route]) => route)).map((route) => route.path);
    expect(costly).toEqual(expect.arrayContaining([routes.sendLoginEmail.path, routes.assessRecaptcha.path]));
    for (const routePath of costly) expect(scoped).toContain(`"SearchString":"${routePath}"`);
    // The boards, the busiest public routes, are never rate-limited by it.
    expect(scoped).not.toContain(routes.showHome.path);
  });

  it("runs AWS's common rule set, counting (not blocking) the rules the product's own requests would trip", () => {
    // Prepare
    const template = wafTemplate();

    // Assess
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      DefaultAction: { Allow: {} },
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'aws-common-rule-set',
          OverrideAction: { None: {} },
          Statement: {
            ManagedRuleGroupStatement: {
              VendorName: 'AWS',
              Name: 'AWSManagedRulesCommonRuleSet',
              RuleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
            },
          },
        }),
      ]),
    });
  });

  it('is attached to the distribution by ARN when given, and absent otherwise', () => {
    // Act: no routes, as the distribution does not depend on them and two whole apps take seconds to synthesize.
    const withWaf = createPlatform(testApp(), {
      routes: [],
      stage: 'waf',
      allowedOrigins: ['https://toppubs.example'],
      mailDomain: 'toppubs.example',
      webAclArn: WEB_ACL_ARN,
      codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
      webDistDir: missingWebDist,
    });
    const without = createPlatform(testApp(), {
      routes: [],
      stage: 'plain',
      allowedOrigins: ['https://toppubs.example'],
      mailDomain: 'toppubs.example',
      codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
      webDistDir: missingWebDist,
    });

    // Assess
    Template.fromStack(withWaf.web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: WEB_ACL_ARN }),
    });
    Template.fromStack(without.web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: Match.absent() }),
    });
  });
});
