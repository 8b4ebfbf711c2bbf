import { capabilitiesOf } from '../../shared/capabilities';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';
import { createPlatform } from '../../infra/cdk/platform';
import type { Platform } from '../../infra/cdk/platform';
import { MAX_ROUTES_PER_STACK, planRouteStacks } from '../../infra/cdk/stacks/route-stack';
import type { NamedRoute } from '../../infra/cdk/stacks/route-stack';
import { routeEntries } from '../../shared/routes/index';
import { testApp } from '../support/cdk-templates';

/** Comfortably below CloudFormation's 500-resource limit per stack. */
const RESOURCE_BUDGET = 400;
/**
 * API Gateway's default quota of routes per HTTP API (adjustable on request): every route is on
 * the one API, so the route table must stay within it.
 */
const HTTP_API_ROUTE_QUOTA = 300;
/** The spec's 108 routes and the ones the apps add (uploads, downloads, admin, the storefront's, comments, feeds): room to spare, within the quota. */
const PADDED_ROUTE_COUNT = 280;

/**
 * The real routes plus synthetic ones in the apps still to come, one of them large enough to
 * need a second stack.
 */
function paddedRoutes(): NamedRoute[] {
  const apps = [
    'account',
    'account',
    'account',
    'account',
    'stories',
    'transfer',
    'storefront',
    'subscriptions',
    'notifications',
  ];
  const synthetic: NamedRoute[] = [];
  for (let index = 0; routeEntries.length + synthetic.length < PADDED_ROUTE_COUNT; index += 1) {
    const app = apps[index % apps.length] as string;
    synthetic.push([
      `synthetic${index}`,
      {
        method: index % 3 === 0 ? 'POST' : 'GET',
        path: `/api/i/${app}/synthetic/${index}/{id}`,
        handler: `${app}/synthetic-${index}`,
        // Every capability a route can have, so the padded table grows the stacks as far as real routes would.
        capabilities: capabilitiesOf(
          {
            email: index % 7 === 0,
            bucket: index % 5 === 0 ? 'read-write' : 'none',
            settings: index % 11 === 0 ? ['google'] : [],
          },
          { table: index % 3 === 0 ? 'read-write' : 'read' },
        ),
      },
    ]);
  }
  return [...routeEntries, ...synthetic];
}

describe('stack sizes with a full route table', () => {
  let platform: Platform;
  let counts: Map<string, number>;
  const routes = paddedRoutes();

  beforeAll(() => {
    // Prepare
    const { context } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
      context: Record<string, unknown>;
    };

    // Act
    platform = createPlatform(testApp({ context }), {
      stage: 'test',
      allowedOrigins: ['http://localhost:3000'],
      mailDomain: 'example.com',
      routes,
      codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
      webDistDir: path.join(REPO_ROOT, 'does-not-exist'),
    });
    const stacks = [
      platform.data,
      platform.api,
      ...platform.routeStacks,
      platform.jobs,
      platform.queues,
      platform.web,
      platform.email,
    ];
    counts = new Map(
      stacks.map((stack) => [stack.stackName, Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length]),
    );
  });

  it(`keeps every stack under ${RESOURCE_BUDGET} resources with ${PADDED_ROUTE_COUNT} routes`, () => {
    // Assess
    console.warn(
      'CloudFormation resources per stack:\n' + [...counts].map(([name, count]) => `  ${name.padEnd(40)} ${count}`).join('\n'),
    );
    expect(routes).toHaveLength(PADDED_ROUTE_COUNT);
    for (const [name, count] of counts) {
      expect(count, name).toBeLessThan(RESOURCE_BUDGET);
    }
  });

  it('still puts every route on the one HTTP API', () => {
    // Prepare
    const apiId = platform.api.getLogicalId(platform.api.httpApi.node.defaultChild as never);

    // Act
    const apiRoutes = platform.routeStacks.flatMap((stack) =>
      Object.values(Template.fromStack(stack).findResources('AWS::ApiGatewayV2::Route')),
    );

    // Assess
    expect(apiRoutes).toHaveLength(PADDED_ROUTE_COUNT);
    for (const route of apiRoutes) {
      expect(JSON.stringify(route.Properties.ApiId)).toContain(apiId);
    }
  });
});

describe('the route table against API Gateway', () => {
  it(`stays within the ${HTTP_API_ROUTE_QUOTA} routes an HTTP API may have`, () => {
    // Assess
    expect(routeEntries.length).toBeLessThanOrEqual(HTTP_API_ROUTE_QUOTA);
  });
});

describe('planRouteStacks', () => {
  it('groups routes by app and chunks large apps without moving the first chunk', () => {
    // Prepare
    const route = (app: string, index: number): NamedRoute => [
      `${app}${index}`,
      {
        method: 'GET',
        path: `/api/${app}/${index}`,
        handler: `${app}/h-${index}`,
        capabilities: capabilitiesOf({}, { table: 'read' }),
      },
    ];
    const big = Array.from({ length: MAX_ROUTES_PER_STACK + 5 }, (_, index) => route('account', index));
    const small = Array.from({ length: 3 }, (_, index) => route('ranking', index));

    // Act
    const plans = planRouteStacks([...small, ...big]);

    // Assess
    expect(plans.map((plan) => [plan.key, plan.routes.length])).toEqual([
      ['ranking', 3],
      ['account', MAX_ROUTES_PER_STACK],
      ['account-2', 5],
    ]);
    expect(plans[1]?.routes[0]?.[0]).toBe('account0');
  });
});
