import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as firehose from 'aws-cdk-lib/aws-kinesisfirehose';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ANALYTICS_KEPT_PROPERTIES } from '../../../shared/schemas/analytics';

/**
 * Product analytics' storage: the events bucket, the Firehose delivery stream that writes the
 * ingestion route's events into it (gzipped NDJSON, one object per buffer, by UTC arrival day),
 * a Glue table over those objects (partition projection on the day, so nothing has to add
 * partitions) and an Athena workgroup to query them. The analytics job writes each day's
 * figures into the same bucket, under aggregates/.
 */

/** Where things live in the events bucket; the functions use the same layout. */
export const ANALYTICS_PREFIXES = {
  events: 'events/',
  errors: 'errors/',
  aggregates: 'aggregates/',
  athenaResults: 'athena-results/',
} as const;

/** The exports the function grants import: named by us, so the grants read the same in every synth. */
export const analyticsExportNames = (dataStackId: string) => ({
  bucketArn: `${dataStackId}-AnalyticsBucketArn`,
  streamArn: `${dataStackId}-AnalyticsStreamArn`,
});

/** The day partitions Athena may read: from the product's first analytics day to today. */
const FIRST_EVENTS_DAY = '2026-01-01';
/** Raw events are kept two years (aggregates stay): long enough for year-on-year questions. */
const EVENTS_RETENTION_DAYS = 730;
const COLD_AFTER_DAYS = 90;

/** The Glue columns of one stored event (functions/analytics/lib/stored-event.ts writes them). */
function eventColumns(): glue.CfnTable.ColumnProperty[] {
  const numeric = new Set(['time', 'screen_width', 'screen_height']);
  const kept = Object.values(ANALYTICS_KEPT_PROPERTIES).map((name) => ({
    name,
    type: name === 'time' ? 'bigint' : numeric.has(name) ? 'int' : 'string',
  }));
  return [
    { name: 'event', type: 'string', comment: 'The event name, from the catalogue in shared/schemas/analytics.ts' },
    ...kept,
    // The JSON SerDe hands an object to a string column as its JSON text: json_extract_scalar reads it.
    { name: 'props', type: 'string', comment: "The event's own properties, as JSON" },
    { name: 'received_at', type: 'string', comment: 'When the ingestion route took it (ISO 8601, UTC)' },
  ];
}

export interface AnalyticsStorageProps {
  /** Access logs of the bucket go here. */
  logBucket: s3.IBucket;
  /** The stage's resource prefix (names of the stream, database and workgroup). */
  prefix: string;
}

export class AnalyticsStorage extends Construct {
  readonly bucket: s3.Bucket;
  readonly deliveryStreamName: string;
  readonly deliveryStreamArn: string;
  readonly databaseName: string;
  readonly tableName = 'events';
  readonly workGroupName: string;

  constructor(scope: Construct, id: string, props: AnalyticsStorageProps) {
    super(scope, id);
    const stackId = Stack.of(this).node.id;
    const lowerPrefix = props.prefix.toLowerCase();

    this.bucket = new s3.Bucket(this, 'EventsBucket', {
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 's3/analytics-bucket/',
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'events',
          prefix: ANALYTICS_PREFIXES.events,
          transitions: [{ storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(COLD_AFTER_DAYS) }],
          expiration: Duration.days(EVENTS_RETENTION_DAYS),
        },
        { id: 'delivery-errors', prefix: ANALYTICS_PREFIXES.errors, expiration: Duration.days(90) },
        { id: 'athena-results', prefix: ANALYTICS_PREFIXES.athenaResults, expiration: Duration.days(30) },
        { id: 'abort-abandoned-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    // The stream's own role: write (and finish or abandon uploads) in this bucket only.
    const deliveryRole = new iam.Role(this, 'DeliveryRole', {
      assumedBy: new iam.ServicePrincipal('firehose.amazonaws.com', {
        conditions: { StringEquals: { 'sts:ExternalId': Aws.ACCOUNT_ID } },
      }),
      description: 'Lets the analytics delivery stream write events into the analytics bucket',
    });
    deliveryRole.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          's3:AbortMultipartUpload',
          's3:GetBucketLocation',
          's3:GetObject',
          's3:ListBucket',
          's3:ListBucketMultipartUploads',
          's3:PutObject',
        ],
        resources: [this.bucket.bucketArn, this.bucket.arnForObjects('*')],
      }),
    );
    const bucketLogicalId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    Validations.of(deliveryRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
      reason: 'Firehose names each object it delivers (events and errors), so it may write any key of this one bucket.',
    });
    const stream = new firehose.CfnDeliveryStream(this, 'EventsStream', {
      deliveryStreamName: `${props.prefix}-analytics-events`,
      deliveryStreamType: 'DirectPut',
      deliveryStreamEncryptionConfigurationInput: { keyType: 'AWS_OWNED_CMK' },
      extendedS3DestinationConfiguration: {
        bucketArn: this.bucket.bucketArn,
        roleArn: deliveryRole.roleArn,
        // Firehose's arrival time, in UTC: a day's events are in its partition and the next one's.
        prefix: `${ANALYTICS_PREFIXES.events}dt=!{timestamp:yyyy-MM-dd}/`,
        errorOutputPrefix: `${ANALYTICS_PREFIXES.errors}!{firehose:error-output-type}/dt=!{timestamp:yyyy-MM-dd}/`,
        bufferingHints: { intervalInSeconds: 60, sizeInMBs: 5 },
        compressionFormat: 'GZIP',
        fileExtension: '.ndjson.gz',
      },
    });
    // The role's policy must exist before Firehose first tries to deliver.
    stream.node.addDependency(deliveryRole);
    this.deliveryStreamName = stream.ref;
    this.deliveryStreamArn = stream.attrArn;

    this.databaseName = `${lowerPrefix.replace(/[^a-z0-9]/g, '_')}_analytics`;
    const database = new glue.CfnDatabase(this, 'Database', {
      catalogId: Aws.ACCOUNT_ID,
      databaseInput: { name: this.databaseName, description: 'Product analytics events (Firehose -> S3)' },
    });
    const eventsLocation = `s3://${this.bucket.bucketName}/${ANALYTICS_PREFIXES.events}`;
    const table = new glue.CfnTable(this, 'EventsTable', {
      catalogId: Aws.ACCOUNT_ID,
      databaseName: this.databaseName,
      tableInput: {
        name: this.tableName,
        description: 'One row per accepted event; dt is the UTC day it arrived (an event can arrive the day after it happened).',
        tableType: 'EXTERNAL_TABLE',
        partitionKeys: [{ name: 'dt', type: 'string' }],
        parameters: {
          classification: 'json',
          'projection.enabled': 'true',
          'projection.dt.type': 'date',
          'projection.dt.format': 'yyyy-MM-dd',
          'projection.dt.range': `${FIRST_EVENTS_DAY},NOW`,
          'projection.dt.interval': '1',
          'projection.dt.interval.unit': 'DAYS',
          'storage.location.template': `${eventsLocation}dt=\${dt}/`,
        },
        storageDescriptor: {
          location: eventsLocation,
          inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
          serdeInfo: {
            serializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
            parameters: { 'ignore.malformed.json': 'true', 'case.insensitive': 'false' },
          },
          columns: eventColumns(),
        },
      },
    });
    table.addResourceDependency(database);

    this.workGroupName = `${props.prefix}-analytics`;
    new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: this.workGroupName,
      description: 'Ad-hoc queries over the product analytics events',
      state: 'ENABLED',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        // A runaway query stops at 10 GB scanned (a few cents), not at the whole history.
        bytesScannedCutoffPerQuery: 10 * 1024 ** 3,
        resultConfiguration: {
          outputLocation: `s3://${this.bucket.bucketName}/${ANALYTICS_PREFIXES.athenaResults}`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });

    const exports = analyticsExportNames(stackId);
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'BucketArn', { value: this.bucket.bucketArn, exportName: exports.bucketArn });
    new CfnOutput(this, 'StreamArn', { value: this.deliveryStreamArn, exportName: exports.streamArn });
    new CfnOutput(this, 'AthenaWorkGroup', { value: this.workGroupName });
    new CfnOutput(this, 'GlueDatabase', { value: this.databaseName });
  }
}
