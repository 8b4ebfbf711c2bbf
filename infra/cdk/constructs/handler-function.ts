import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** Settings every function of one deployment shares. */
export interface FunctionEnvironment {
  stage: string;
  allowedOrigins: readonly string[];
  table: dynamodb.ITable;
  /** The SES identity mail is sent from, and the sender address on it. */
  mail: { identity: ses.IEmailIdentity; from: string };
  /** Parent domain of the sibling apps for the session cookie (single sign-on); optional. */
  sessionCookieDomain?: string | undefined;
  /** Optional settings (sign-in providers, bot check, realtime) for the handlers of one folder. */
  settingsFor?: (handler: string) => Record<string, string>;
}

export interface HandlerFunctionProps {
  /** Handler path under functions/, e.g. 'ranking/show-home'. */
  handler: string;
  code: lambda.Code;
  environment: FunctionEnvironment;
  /** Read-write table access; otherwise read-only. */
  writes: boolean;
  /** Gets ses:SendEmail on the mail identity. */
  sendsEmail?: boolean | undefined;
  memoryMb?: number;
  timeout?: Duration;
}

const DEFAULT_MEMORY_MB = 256;
const DEFAULT_TIMEOUT = Duration.seconds(10);

/**
 * The one place Lambda defaults live, for endpoints and jobs alike: arm64 Node 22 (cheaper per
 * ms than x86), the environment functions/lib/config.ts requires, a log group with a retention,
 * and the narrowest table grant the handler needs.
 */
export class HandlerFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    const { table, stage, allowedOrigins, mail, sessionCookieDomain, settingsFor } = props.environment;

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
        TABLE_NAME: table.tableName,
        ALLOWED_ORIGINS: allowedOrigins.join(','),
        STAGE: stage,
        POWERTOOLS_SERVICE_NAME: props.handler.split('/')[0] ?? props.handler,
        // Login links point at the web app, served on the first allowed origin.
        WEB_ORIGIN: allowedOrigins[0] ?? '',
        MAIL_FROM: mail.from,
        ...(sessionCookieDomain ? { SESSION_COOKIE_DOMAIN: sessionCookieDomain } : {}),
        ...settingsFor?.(props.handler),
      },
    });

    if (props.writes) {
      table.grantReadWriteData(this.function);
    } else {
      table.grantReadData(this.function);
    }
    if (props.sendsEmail) mail.identity.grantSendEmail(this.function);
  }
}
