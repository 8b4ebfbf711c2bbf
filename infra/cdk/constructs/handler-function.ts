import { Duration, Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as ses from 'aws-cdk-lib/aws-ses';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AnalyticsAccess, Capabilities } from '../../../shared/capabilities';
import type { QueueName } from '../../../shared/queues';
import { FILE_KEY_PREFIXES, UPLOAD_KEY_PREFIXES } from '../../../shared/transfers/object-keys';
import { TABLE_KEYS } from '../../../shared/table';
import { notifyOnAlarm } from './notify-on-alarm';
import { type DeploymentSettings, environmentFor } from '../../function-environment';

/** What every function of one deployment may be granted, and the settings they may be given. */
export interface FunctionEnvironment {
  table: dynamodb.ITable;
  /** The SES identity mail is sent from. */
  mailIdentity: ses.IEmailIdentity;
  /** The configuration set every send names (MAIL_CONFIGURATION_SET). */
  mailConfigurationSet: ses.IConfigurationSet;
  /**
   * The file bucket's ARN as the data stack exports it under a name of ours. Grants are built on
   * it rather than on the bucket's own attribute, whose import CDK names by a hash at synthesis,
   * so the rule pack's finding on the grant can be acknowledged by its exact id.
   */
  fileBucketArnExport: string;
  /** The Braintree keys: functions with the payments capability may read this secret, and no other. */
  paymentSecret?: secretsmanager.ISecret | undefined;
  /**
   * The key that seals merchants' gateway keys: functions with the merchantKeys capability get
   * kms:GenerateDataKey on it ('seal'), and kms:Decrypt too ('open'); on this key only.
   */
  merchantKeysKey?: kms.IKey | undefined;
  /**
   * The analytics bucket's and delivery stream's ARNs as the data stack exports them under names
   * of ours (as for the file bucket): functions with an analytics capability are granted on them.
   */
  analyticsExports?: { bucketArn: string; streamArn: string } | undefined;
  /** Lets a function post to the WebSocket API's connections: attached to those with the realtime capability. */
  realtimePushPolicy?: iam.IManagedPolicy | undefined;
  /**
   * The work queues of the deployment (the queues stack): a function that declares one in its
   * capabilities may send to it (sqs:SendMessage on that queue only); its URL is in `deployment.queues`.
   */
  queues?: Partial<Record<QueueName, sqs.IQueue>> | undefined;
  deployment: DeploymentSettings;
  /** Where the function's error and throttle alarms notify; no alarms without it. */
  alarmTopic?: sns.ITopic | undefined;
}

/** Errors of one function over 5 minutes that page: a handful is a bad deploy or a dependency down. */
export const FUNCTION_ERRORS_THRESHOLD = 5;

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
/** What reading the table needs: items, queries on its indexes, and the SDK's DescribeTable. */
const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
/** Transactions need no action of their own: each item in one is checked against these. */
const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const DEFAULT_TIMEOUT = Duration.seconds(10);

/**
 * The one place Lambda defaults live, for endpoints and jobs alike: arm64 Node 22 (cheaper per
 * ms than x86), a log group with a retention, and exactly the grants and environment its
 * declared capabilities name (the local runtime enforces the same declaration).
 */
/** What a route with bucket access may do: named actions, never `s3:*` style wildcards. */
const BUCKET_READ_ACTIONS = ['s3:GetObject', 's3:ListMultipartUploadParts'];
/** PutObjectTagging: uploads carry the retention tag their lifecycle rule keys on. */
const BUCKET_WRITE_ACTIONS = ['s3:PutObject', 's3:PutObjectTagging', 's3:AbortMultipartUpload'];
/** What each merchantKeys capability may do with the merchant keys' KMS key. */
const MERCHANT_KEYS_ACTIONS = {
  seal: ['kms:GenerateDataKey'],
  open: ['kms:GenerateDataKey', 'kms:Decrypt'],
} as const satisfies Record<'seal' | 'open', readonly string[]>;

export class HandlerFunction extends Construct {
  readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    const { table, mailIdentity, mailConfigurationSet, deployment } = props.environment;
    const { capabilities } = props;
    const sendQueues = capabilities.queues.map((name) => {
      const queue = props.environment.queues?.[name];
      if (!queue) throw new Error(`${props.handler} sends to the ${name} queue, but this deployment has no such queue`);
      return queue;
    });

    // Without an explicit group Lambda creates one that never expires and outlives the stack.
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // An own role with nothing attached by AWS: the managed basic-execution policy would let the
    // function write to any log group in the account, where it only needs its own.
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.handler}`,
    });
    logGroup.grantWrite(role);

    this.function = new lambda.Function(this, 'Function', {
      role,
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

    // The table and its named indexes only: `grantReadData` would add `index/*`.
    const tableResources = [
      table.tableArn,
      ...TABLE_KEYS.globalIndexes.map(({ indexName }) => `${table.tableArn}/index/${indexName}`),
    ];
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: TABLE_READ_ACTIONS, resources: tableResources }));
    if (capabilities.table === 'read-write') {
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: TABLE_WRITE_ACTIONS, resources: [table.tableArn] }));
    }
    if (capabilities.email) {
      mailIdentity.grantSendEmail(this.function);
      // SES authorizes a send that names a configuration set against that set as well.
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [
            Stack.of(this).formatArn({
              service: 'ses',
              resource: 'configuration-set',
              resourceName: mailConfigurationSet.configurationSetName,
            }),
          ],
        }),
      );
    }
    if (capabilities.bucket !== 'none') {
      const actions = [
        ...(capabilities.bucket === 'read' || capabilities.bucket === 'read-write' ? BUCKET_READ_ACTIONS : []),
        ...(capabilities.bucket === 'write' || capabilities.bucket === 'read-write' ? BUCKET_WRITE_ACTIONS : []),
        ...(capabilities.bucket === 'read-write' ? ['s3:DeleteObject'] : []),
      ];
      const bucketArn = Fn.importValue(props.environment.fileBucketArnExport);
      // A write-only function signs the browser's uploads: it may not write where finalize keeps
      // the checked bytes, so no upload form or part URL for a final key would be honoured
      // (shared/transfers/object-keys.ts).
      const prefixes = capabilities.bucket === 'write' ? UPLOAD_KEY_PREFIXES : FILE_KEY_PREFIXES;
      const resources = prefixes.map((prefix) => Fn.join('', [bucketArn, `/${prefix}*`]));
      role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources }));
      for (const prefix of prefixes) {
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${props.environment.fileBucketArnExport}/${prefix}*]`,
          reason:
            'Each file gets its own key, chosen by the server when the file is created, so the grant covers the file prefixes; the route decides which key a caller may reach.',
        });
      }
    }
    if (capabilities.payments) {
      const { paymentSecret } = props.environment;
      if (!paymentSecret)
        throw new Error(`${props.handler} calls the payment gateway, but this deployment has no Braintree secret`);
      paymentSecret.grantRead(role);
    }
    if (capabilities.merchantKeys !== 'none') {
      const { merchantKeysKey } = props.environment;
      if (!merchantKeysKey)
        throw new Error(`${props.handler} seals merchant keys, but this deployment has no merchant keys' KMS key`);
      // Exactly these actions (grantEncrypt would add Encrypt and ReEncrypt*, which nothing here needs).
      merchantKeysKey.grant(role, ...MERCHANT_KEYS_ACTIONS[capabilities.merchantKeys]);
    }
    if (capabilities.realtime) {
      const { realtimePushPolicy } = props.environment;
      if (!realtimePushPolicy)
        throw new Error(`${props.handler} pushes to realtime connections, but this deployment has no WebSocket API`);
      role.addManagedPolicy(realtimePushPolicy);
    }
    if (capabilities.analytics !== 'none')
      grantAnalytics(role, props.handler, capabilities.analytics, props.environment.analyticsExports);
    // sqs:SendMessage (and the SDK's GetQueueAttributes, GetQueueUrl) on each declared queue only.
    for (const queue of sendQueues) queue.grantSendMessages(this.function);

    if (props.environment.alarmTopic) {
      const period = Duration.minutes(5);
      const alarms = [
        this.function.metricErrors({ period }).createAlarm(this, 'ErrorsAlarm', {
          alarmDescription: `${props.handler}: ${FUNCTION_ERRORS_THRESHOLD} or more errors in 5 minutes. See docs/operations.md#function-errors.`,
          threshold: FUNCTION_ERRORS_THRESHOLD,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
        this.function.metricThrottles({ period }).createAlarm(this, 'ThrottlesAlarm', {
          alarmDescription: `${props.handler}: throttled by Lambda's concurrency limit. See docs/operations.md#function-throttles.`,
          threshold: 0,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      ];
      notifyOnAlarm(props.environment.alarmTopic, alarms);
    }

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime this product is built and tested for (esbuild targets node22; the stack was chosen ' +
        'with the product owner). Moving to a newer runtime is a deliberate upgrade with its own test run, not a default.',
    });
  }
}

/**
 * What each analytics capability may do, as the local runtime enforces it (infra/local/grants.ts):
 * 'put' puts records on the delivery stream and reads no object; 'read' gets the daily
 * aggregates; 'aggregate' gets the events and the aggregates and puts aggregates. Listing (so a
 * missing aggregate is a 404, not a 403) is limited to the prefixes each may read.
 */
function grantAnalytics(
  role: iam.Role,
  handler: string,
  access: Exclude<AnalyticsAccess, 'none'>,
  exports: { bucketArn: string; streamArn: string } | undefined,
): void {
  if (!exports) throw new Error(`${handler} uses product analytics, but this deployment has no analytics storage`);
  if (access === 'put') {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['firehose:PutRecord', 'firehose:PutRecordBatch'],
        resources: [Fn.importValue(exports.streamArn)],
      }),
    );
    return;
  }
  const bucketArn = Fn.importValue(exports.bucketArn);
  const readable = access === 'read' ? ['aggregates/'] : ['events/', 'aggregates/'];
  const objects = (prefix: string) => Fn.join('', [bucketArn, `/${prefix}*`]);
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: readable.map(objects) }));
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [bucketArn],
      conditions: { StringLike: { 's3:prefix': readable.map((prefix) => `${prefix}*`) } },
    }),
  );
  if (access === 'aggregate') {
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [objects('aggregates/')] }));
  }
  for (const prefix of readable) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${exports.bucketArn}/${prefix}*]`,
      reason:
        'Firehose names each events object and the job one aggregate per day, so the grant covers the prefix the function reads or writes, in this bucket only.',
    });
  }
}
