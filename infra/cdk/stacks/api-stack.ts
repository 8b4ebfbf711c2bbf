import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_CORS } from '../../../shared/constants';

/**
 * One JSON line per request. Never a header, cookie or query string: they carry session tokens
 * and one-time codes. Who called (anonymous, user, app) is in the function's own log line for
 * the same request id, since only the pipeline knows it.
 */
export const API_ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  time: '$context.requestTimeEpoch',
  route: '$context.routeKey',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  responseBytes: '$context.responseLength',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
} as const;

export interface ApiStackProps extends StackProps {
  stage: string;
  allowedOrigins: readonly string[];
}

/**
 * The one HTTP API. Routes are added by the route stacks so that this stack stays tiny and
 * no stack grows with the route table.
 */
export class ApiStack extends Stack {
  readonly httpApi: apigwv2.HttpApi;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `toppubs-${props.stage}`,
      // Sibling apps call cross-origin with credentials. API Gateway answers their preflights and
      // adds the CORS headers to every answer, ignoring any a function sends (API_CORS).
      corsPreflight: {
        allowOrigins: [...props.allowedOrigins],
        allowCredentials: true,
        allowMethods: API_CORS.allowMethods.map((method) => apigwv2.CorsHttpMethod[method]),
        allowHeaders: [...API_CORS.allowHeaders],
        exposeHeaders: [...API_CORS.exposeHeaders],
        maxAge: Duration.seconds(API_CORS.maxAgeSeconds),
      },
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Set on the default stage's resource: the L2 only takes log settings for stages it does not create.
    const defaultStage = this.httpApi.defaultStage?.node.defaultChild as apigwv2.CfnStage;
    defaultStage.accessLogSettings = {
      destinationArn: this.accessLogs.logGroupArn,
      format: JSON.stringify(API_ACCESS_LOG_FORMAT),
    };

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }
}
