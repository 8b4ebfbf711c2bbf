import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { FirehoseClient } from '@aws-sdk/client-firehose';
import type { AnalyticsAccess, BucketAccess } from '../../shared/capabilities';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { currentFunction } from '../../functions/lib/function-environment';
import { UPLOAD_KEY_PREFIXES } from '../../shared/transfers/object-keys';

/** What IAM's grantReadData allows; everything else on the table needs grantReadWriteData. */
const TABLE_READ_COMMANDS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
  'DescribeTableCommand',
  'ConditionCheckItemCommand',
]);

const MIDDLEWARE_NAME = 'localTableGrants';

/** The error DynamoDB answers when the caller's role lacks the action, shaped as the SDK raises it. */
export class LocalAccessDenied extends DynamoDBServiceException {
  constructor(functionName: string, action: string, tableName: string) {
    super({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: `User: arn:aws:sts::000000000000:assumed-role/${functionName}/local is not authorized to perform: dynamodb:${action} on resource: arn:aws:dynamodb:local:000000000000:table/${tableName} because no identity-based policy allows the dynamodb:${action} action`,
    });
  }
}

/**
 * Refuses a table write from a function whose route grants only reads, as IAM does in AWS. The
 * check runs inside the client, so it covers every path to the table (ElectroDB, transactions,
 * batches), and code outside any function (seeding, tests) is not limited.
 */
export function enforceTableGrants(client: DynamoDBDocumentClient): void {
  if (client.middlewareStack.identify().some((entry) => entry.startsWith(MIDDLEWARE_NAME))) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = currentFunction();
      const command = context.commandName ?? '';
      if (scope && scope.capabilities.table !== 'read-write' && !TABLE_READ_COMMANDS.has(command)) {
        const input = args.input as { TableName?: string };
        throw new LocalAccessDenied(scope.name, command.replace(/Command$/, ''), input.TableName ?? 'table');
      }
      return next(args);
    },
    { step: 'initialize', name: MIDDLEWARE_NAME, priority: 'high' },
  );
}

/**
 * What each bucket grant allows, as the CDK app writes it (infra/cdk/constructs/handler-function.ts):
 * 'read' gets and lists parts, 'write' puts (multipart included) and aborts, 'read-write' both
 * and deletes. A command not listed here needs 'read-write'.
 */
const BUCKET_COMMAND_GRANTS: Readonly<Record<string, readonly BucketAccess[]>> = {
  GetObjectCommand: ['read', 'read-write'],
  HeadObjectCommand: ['read', 'read-write'],
  ListPartsCommand: ['read', 'read-write'],
  PutObjectCommand: ['write', 'read-write'],
  CreateMultipartUploadCommand: ['write', 'read-write'],
  UploadPartCommand: ['write', 'read-write'],
  CompleteMultipartUploadCommand: ['write', 'read-write'],
  AbortMultipartUploadCommand: ['write', 'read-write'],
  // s3:GetObject on the source and s3:PutObject on the copy: both grants.
  CopyObjectCommand: ['read-write'],
  UploadPartCopyCommand: ['read-write'],
};

const BUCKET_MIDDLEWARE_NAME = 'localBucketGrants';

/**
 * S3's and Firehose's refusals (grant-errors.ts), loaded on the first refusal: they extend the
 * SDK's service exceptions, and S3's client is too heavy to load with the runtime for that.
 */
const loadGrantErrors = () => import('./grant-errors');

/**
 * Refuses a bucket call (presigning included: S3 would refuse the URL) from a function whose
 * route does not grant it, as IAM does in AWS: a 'write' grant covers the upload prefixes only,
 * not the final keys finalize copies checked bytes to (shared/transfers/object-keys.ts). A
 * function with no bucket grant is not even given the bucket's name, so its calls fail earlier,
 * in config.
 */
export function enforceBucketGrants(client: S3Client): void {
  if (client.middlewareStack.identify().some((entry) => entry.startsWith(BUCKET_MIDDLEWARE_NAME))) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = currentFunction();
      const command = context.commandName ?? '';
      const allowed = BUCKET_COMMAND_GRANTS[command] ?? ['read-write'];
      const key = (args.input as { Key?: string }).Key ?? '';
      const outsideGrant =
        scope?.capabilities.bucket === 'write' && !UPLOAD_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
      if (scope && (!allowed.includes(scope.capabilities.bucket) || outsideGrant)) {
        const { LocalBucketAccessDenied } = await loadGrantErrors();
        throw new LocalBucketAccessDenied(scope.name, command);
      }
      return next(args);
    },
    { step: 'initialize', name: BUCKET_MIDDLEWARE_NAME, priority: 'high' },
  );
}

/**
 * What each analytics grant allows, as the CDK app writes it (infra/cdk/constructs/analytics.ts):
 * 'put' puts records on the delivery stream and touches no object; 'read' gets the daily
 * aggregates; 'aggregate' lists and gets the events and the aggregates, and puts aggregates.
 */
function analyticsCallAllowed(access: AnalyticsAccess, command: string, key: string | undefined): boolean {
  const aggregateObject = key?.startsWith('aggregates/') === true;
  switch (command) {
    case 'PutRecordBatchCommand':
    case 'PutRecordCommand':
      return access === 'put';
    case 'GetObjectCommand':
    case 'HeadObjectCommand':
      return access === 'aggregate' || (access === 'read' && aggregateObject);
    case 'ListObjectsV2Command':
      return access === 'aggregate';
    case 'PutObjectCommand':
      return access === 'aggregate' && aggregateObject;
    default:
      return false;
  }
}

const ANALYTICS_MIDDLEWARE_NAME = 'localAnalyticsGrants';

/**
 * Refuses an analytics call that the calling function's grant does not allow, as IAM does in
 * AWS, on both analytics clients (the delivery stream's and the events bucket's).
 */
export function enforceAnalyticsGrants(clients: { s3?: S3Client; firehose?: FirehoseClient }): void {
  for (const client of [clients.s3, clients.firehose]) {
    if (!client) continue;
    const stack = client.middlewareStack as S3Client['middlewareStack'];
    if (stack.identify().some((entry) => entry.startsWith(ANALYTICS_MIDDLEWARE_NAME))) continue;
    const isStream = client === clients.firehose;
    stack.add(
      (next, context) => async (args) => {
        const scope = currentFunction();
        const command = context.commandName ?? '';
        const key = (args.input as { Key?: string }).Key;
        if (scope && !analyticsCallAllowed(scope.capabilities.analytics, command, key)) {
          const { LocalBucketAccessDenied, LocalFirehoseAccessDenied } = await loadGrantErrors();
          throw isStream ? new LocalFirehoseAccessDenied(scope.name, command) : new LocalBucketAccessDenied(scope.name, command);
        }
        return next(args);
      },
      { step: 'initialize', name: ANALYTICS_MIDDLEWARE_NAME, priority: 'high' },
    );
  }
}
