import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS } from '../../../shared/constants';

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

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `toppubs-${props.stage}`,
      // Sibling apps call cross-origin with credentials; API Gateway answers their preflights.
      corsPreflight: {
        allowOrigins: [...props.allowedOrigins],
        allowCredentials: true,
        allowMethods: [
          apigwv2.CorsHttpMethod.GET,
          apigwv2.CorsHttpMethod.POST,
          apigwv2.CorsHttpMethod.PUT,
          apigwv2.CorsHttpMethod.DELETE,
        ],
        allowHeaders: [...CORS_ALLOWED_HEADERS],
        maxAge: Duration.hours(1),
      },
    });

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }
}
