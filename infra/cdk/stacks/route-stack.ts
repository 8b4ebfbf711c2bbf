import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { DEFAULT_ROUTE_TIMEOUT_SECONDS, type RouteDefinition } from '../../../shared/routes/index';
import { bundledCode } from '../code-source';
import type { CodeFor } from '../code-source';
import { HandlerFunction } from '../constructs/handler-function';
import type { FunctionEnvironment } from '../constructs/handler-function';

/** The part of a route table entry the cloud needs. */
export type InfraRoute = Pick<RouteDefinition, 'method' | 'path' | 'handler' | 'capabilities' | 'memoryMb' | 'timeoutSeconds'>;
export type NamedRoute = readonly [name: string, route: InfraRoute];

/** About 7 resources per route (function, role, policy, log group, integration, route, permission). */
export const MAX_ROUTES_PER_STACK = 40;

export interface RouteStackPlan {
  /** Stable suffix for the stack id, e.g. 'ranking' or 'ranking-2'. */
  key: string;
  routes: NamedRoute[];
}

/**
 * Groups routes by app (the handler's folder), then chunks each app. A route therefore only
 * changes stack when its own app outgrows a chunk; moving a route between stacks would make
 * CloudFormation create the new route key before deleting the old one, which fails.
 */
export function planRouteStacks(
  routes: readonly NamedRoute[],
  maxRoutesPerStack: number = MAX_ROUTES_PER_STACK,
): RouteStackPlan[] {
  const byApp = new Map<string, NamedRoute[]>();
  for (const entry of routes) {
    const app = entry[1].handler.split('/')[0] ?? entry[1].handler;
    byApp.set(app, [...(byApp.get(app) ?? []), entry]);
  }
  return [...byApp].flatMap(([app, appRoutes]) => {
    const chunks: RouteStackPlan[] = [];
    for (let start = 0; start < appRoutes.length; start += maxRoutesPerStack) {
      const chunk = start / maxRoutesPerStack + 1;
      chunks.push({ key: chunk === 1 ? app : `${app}-${chunk}`, routes: appRoutes.slice(start, start + maxRoutesPerStack) });
    }
    return chunks;
  });
}

export interface RouteStackProps extends StackProps {
  httpApi: apigwv2.IHttpApi;
  environment: FunctionEnvironment;
  routes: readonly NamedRoute[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
}

/** One Lambda function and one HTTP API route per route table entry, on the shared API. */
export class RouteStack extends Stack {
  readonly functions = new Map<string, HandlerFunction>();

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, props);
    const codeFor = props.codeFor ?? bundledCode();
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every route is authorized in its function by the shared request pipeline (functions/lib/http/create-handler.ts): ' +
        'the route table gives each route its access level (public, user, superuser, app), and the pipeline resolves the ' +
        'session cookie or app token and answers 401/403 before the handler runs. Public board routes must stay open, ' +
        'and an API Gateway authorizer would add a second Lambda call to every request.',
    });

    for (const [name, route] of props.routes) {
      const endpoint = new HandlerFunction(this, name, {
        handler: route.handler,
        code: codeFor(route.handler),
        environment: props.environment,
        capabilities: route.capabilities,
        memoryMb: route.memoryMb,
        timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS),
      });
      new apigwv2.HttpRoute(this, `${name}Route`, {
        httpApi: props.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, endpoint.function),
      });
      this.functions.set(name, endpoint);
    }
  }
}
