import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { Capabilities } from '../../../shared/capabilities';
import { type DeploymentSettings, environmentFor } from '../../function-environment';

/** What every function of one deployment may be granted, and the settings they may be given. */
export interface FunctionEnvironment {
  table: dynamodb.ITable;
  /** The SES identity mail is sent from. */
  mailIdentity: ses.IEmailIdentity;
  fileBucket: s3.IBucket;
  deployment: DeploymentSettings;
}

export interface HandlerFunctionProps {
  /** Handler path under functions/, e.g. 'ranking/show-home'. */
  handler: string;
  code: lambda.Code;
  environment: FunctionEnvironment;
  /** Its grants and environment, from the route table or the job schedules. */
  capabilities: Capabilities;
  memoryMb?: number | undefined;
  timeout?: Duration;
}

const DEFAULT_MEMORY_MB = 256;
const DEFAULT_TIMEOUT = Duration.seconds(10);

/**
 * The one place Lambda defaults live, for endpoints and jobs alike: arm64 Node 22 (cheaper per
 * ms than x86), a log group with a retention, and exactly the grants and environment its
 * declared capabilities name (the local runtime enforces the same declaration).
 */
export class HandlerFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    const { table, mailIdentity, fileBucket, deployment } = props.environment;
    const { capabilities } = props;

    // Without an explicit group Lambda creates one that never expires and outlives the stack.
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.function = new lambda.Function(this, 'Function', {
      description: props.handler,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: props.code,
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: props.timeout ?? DEFAULT_TIMEOUT,
      logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: props.handler.split('/')[0] ?? props.handler,
        ...environmentFor(capabilities, deployment),
      },
    });

    if (capabilities.table === 'read-write') table.grantReadWriteData(this.function);
    else table.grantReadData(this.function);
    if (capabilities.email) mailIdentity.grantSendEmail(this.function);
    if (capabilities.bucket === 'read') fileBucket.grantRead(this.function);
    if (capabilities.bucket === 'write') fileBucket.grantPut(this.function);
    if (capabilities.bucket === 'read-write') fileBucket.grantReadWrite(this.function);
  }
}
