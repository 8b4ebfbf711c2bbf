import { CfnOutput, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RealtimeHandler } from '../../../shared/realtime';
import { bundledCode, type CodeFor } from '../code-source';
import { type FunctionEnvironment, HandlerFunction } from '../constructs/handler-function';

/** One JSON line per connect, message and disconnect; never the query string, which carries the ticket. */
export const REALTIME_ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  time: '$context.requestTimeEpoch',
  eventType: '$context.eventType',
  route: '$context.routeKey',
  connectionId: '$context.connectionId',
  status: '$context.status',
  integrationLatencyMs: '$context.integrationLatency',
  error: '$context.error.message',
  ip: '$context.identity.sourceIp',
} as const;

export interface RealtimeStackProps extends StackProps {
  stage: string;
  /** What the connection functions get; REALTIME_URL is added here. */
  environment: FunctionEnvironment;
  handlers: readonly RealtimeHandler[];
  /** Defaults to the esbuild bundles under dist/functions. */
  codeFor?: CodeFor;
}

/**
 * The WebSocket API browsers keep open for live updates: `$connect` (spends the ticket from the
 * realtime client route), `$disconnect` and `$default` (pings), one function each. Functions
 * with the realtime capability push through this stage's management API.
 */
export class RealtimeStack extends Stack {
  readonly api: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;
  /** execute-api:ManageConnections on this stage's connections, for functions with the realtime capability. */
  readonly pushPolicy: iam.ManagedPolicy;
  readonly functions = new Map<string, HandlerFunction>();

  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
    const codeFor = props.codeFor ?? bundledCode();

    this.api = new apigwv2.WebSocketApi(this, 'WebSocketApi', {
      apiName: `toppubs-${props.stage}-realtime`,
      routeSelectionExpression: '$request.body.action',
    });

    // WebSocket APIs log through the account's API Gateway CloudWatch role (HTTP APIs need none).
    const loggingRole = new iam.Role(this, 'ApiGatewayLoggingRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: "API Gateway's account-wide role for writing access and execution logs",
      inlinePolicies: {
        logs: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: [
                'logs:CreateLogGroup',
                'logs:CreateLogStream',
                'logs:DescribeLogGroups',
                'logs:DescribeLogStreams',
                'logs:PutLogEvents',
                'logs:GetLogEvents',
                'logs:FilterLogEvents',
              ],
              resources: ['*'],
            }),
          ],
        }),
      },
    });
    Validations.of(loggingRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "API Gateway's account-level logging role writes the log groups of every API in the account and region, which are not known here; " +
        'this is the policy AWS documents for it (AmazonAPIGatewayPushToCloudWatchLogs), inlined.',
    });
    const account = new apigw.CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: loggingRole.roleArn });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: props.stage,
      autoDeploy: true,
      // Per stage, across everyone: connects and pings are rare; a flood is refused at the edge.
      throttle: { rateLimit: 500, burstLimit: 1000 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigw.AccessLogFormat.custom(JSON.stringify(REALTIME_ACCESS_LOG_FORMAT)),
      },
    });
    this.stage.node.addDependency(account);

    this.pushPolicy = new iam.ManagedPolicy(this, 'PushPolicy', {
      description: 'Post to the realtime WebSocket connections (functions with the realtime capability)',
      statements: [
        new iam.PolicyStatement({
          actions: ['execute-api:ManageConnections'],
          resources: [
            this.formatArn({
              service: 'execute-api',
              resource: this.api.apiId,
              resourceName: `${this.stage.stageName}/POST/@connections/*`,
            }),
          ],
        }),
      ],
    });
    const apiLogicalId = this.getLogicalId(this.api.node.defaultChild as apigwv2.CfnApi);
    Validations.of(this.pushPolicy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiLogicalId}>/${props.stage}/POST/@connections/*]`,
      reason:
        'A push names its connection by id, and API Gateway makes ids at connect time: the grant is POST on this one ' +
        "WebSocket API stage's @connections and nothing else.",
    });

    const environment: FunctionEnvironment = {
      ...props.environment,
      deployment: {
        ...props.environment.deployment,
        common: { ...props.environment.deployment.common, REALTIME_URL: this.stage.url },
      },
    };
    for (const realtime of props.handlers) {
      const handlerFunction = new HandlerFunction(this, realtime.name, {
        handler: realtime.handler,
        code: codeFor(realtime.handler),
        environment,
        capabilities: realtime.capabilities,
      });
      const route = this.api.addRoute(realtime.routeKey, {
        integration: new WebSocketLambdaIntegration(`${realtime.name}Integration`, handlerFunction.function),
        // $default answers pings: its function's answer goes back down the connection.
        returnResponse: realtime.routeKey === '$default',
      });
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          realtime.routeKey === '$connect'
            ? 'The $connect function authorizes every connection: it spends a single-use, one-minute ticket that only the ' +
              "signed-in person's own session can get (GET /api/i/user/auth/login/pusher/client), and refuses other origins."
            : 'API Gateway calls this route only on a connection that $connect authorized; an authorizer can only be set on $connect.',
      });
      this.functions.set(realtime.name, handlerFunction);
    }

    new CfnOutput(this, 'RealtimeUrl', { value: this.stage.url });
  }
}
