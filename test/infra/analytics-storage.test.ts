import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FunctionEnvironment, HandlerFunction } from '../../infra/cdk/constructs/handler-function';
import { DataStack } from '../../infra/cdk/stacks/data-stack';
import { capabilitiesOf } from '../../shared/capabilities';
import { routes } from '../../shared/routes';
import { JOB_SCHEDULES } from '../../shared/schedules';
import { testApp } from '../support/cdk-templates';

let data: Template;
let functions: Record<'track' | 'engage' | 'figures' | 'job' | 'health', lambda.Function>;

beforeAll(() => {
  data = Template.fromStack(new DataStack(testApp(), 'TopPubs-test-Data', { allowedOrigins: ['https://toppubs.example'] }));
  const app = testApp();
  // The functions with the capabilities the route table and the job schedule declare.
  const stack = new Stack(app, 'Functions');
  const environment: FunctionEnvironment = {
    table: dynamodb.Table.fromTableName(stack, 'Table', 'table'),
    mailIdentity: ses.EmailIdentity.fromEmailIdentityName(stack, 'Identity', 'example.com'),
    mailConfigurationSet: ses.ConfigurationSet.fromConfigurationSetName(stack, 'Set', 'set'),
    fileBucketArnExport: 'Test-FileBucketArn',
    analyticsExports: { bucketArn: 'Test-AnalyticsBucketArn', streamArn: 'Test-AnalyticsStreamArn' },
    deployment: {
      common: {},
      email: {},
      bucket: {},
      realtime: {},
      payments: {},
      queues: {},
      settings: {},
      analytics: { ANALYTICS_BUCKET_NAME: 'events-bucket', ANALYTICS_STREAM_NAME: 'events-stream' },
    },
  };
  const job = JOB_SCHEDULES.find((schedule) => schedule.name === 'aggregate-analytics');
  const make = (id: string, handler: string, capabilities = capabilitiesOf({}, { table: 'read' })) =>
    new HandlerFunction(stack, id, {
      handler,
      code: lambda.Code.fromInline('export const handler = async () => ({})'),
      environment,
      capabilities,
    }).function;
  functions = {
    track: make('Track', routes.trackAnalyticsEvents.handler, routes.trackAnalyticsEvents.capabilities),
    engage: make('Engage', routes.engageAnalyticsProfiles.handler, routes.engageAnalyticsProfiles.capabilities),
    figures: make('Figures', routes.getAnalyticsFigures.handler, routes.getAnalyticsFigures.capabilities),
    job: make('Job', job?.handler ?? 'missing', job?.capabilities),
    health: make('Health', routes.health.handler, routes.health.capabilities),
  };
});

/** Every statement of the policies on a function's role, with actions as a list. */
function statementsOf(fn: lambda.Function): { Action: string[]; Resource: unknown; Condition?: unknown }[] {
  const stack = Stack.of(fn);
  const roleId = stack.getLogicalId(fn.role?.node.defaultChild as never);
  const policies = Template.fromStack(stack).findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies).flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).map((statement) => ({
      ...statement,
      Action: [statement.Action].flat(),
    })),
  );
}

const actionsOf = (fn: lambda.Function) => statementsOf(fn).flatMap((statement) => statement.Action);
const resourcesText = (fn: lambda.Function, action: string) =>
  JSON.stringify(
    statementsOf(fn)
      .filter((statement) => statement.Action.includes(action))
      .map((statement) => statement.Resource),
  );

describe('analytics storage in AWS', () => {
  it('keeps events in a private, encrypted bucket that expires them and Athena results', () => {
    // Assess
    const buckets = data.findResources('AWS::S3::Bucket', {
      Properties: { LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'events' })]) } },
    });
    const [bucket] = Object.values(buckets);
    expect(bucket?.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { LogFilePrefix: 's3/analytics-bucket/' },
    });
    const rules = bucket?.Properties.LifecycleConfiguration.Rules as { Id: string; Prefix?: string; ExpirationInDays?: number }[];
    expect(rules.find((rule) => rule.Id === 'events')).toMatchObject({ Prefix: 'events/', ExpirationInDays: 730 });
    expect(rules.find((rule) => rule.Id === 'athena-results')).toMatchObject({ Prefix: 'athena-results/', ExpirationInDays: 30 });
  });

  it('delivers the stream to S3 by arrival day, gzipped, with failed records under an error prefix', () => {
    // Assess
    data.hasResourceProperties('AWS::KinesisFirehose::DeliveryStream', {
      DeliveryStreamType: 'DirectPut',
      DeliveryStreamName: 'TopPubs-test-analytics-events',
      DeliveryStreamEncryptionConfigurationInput: { KeyType: 'AWS_OWNED_CMK' },
      ExtendedS3DestinationConfiguration: Match.objectLike({
        Prefix: 'events/dt=!{timestamp:yyyy-MM-dd}/',
        ErrorOutputPrefix: 'errors/!{firehose:error-output-type}/dt=!{timestamp:yyyy-MM-dd}/',
        CompressionFormat: 'GZIP',
        BufferingHints: { IntervalInSeconds: 60, SizeInMBs: 5 },
        FileExtension: '.ndjson.gz',
      }),
    });
  });

  it('describes the events to Athena: a JSON table projected on the day, and a workgroup with encrypted results', () => {
    // Assess
    const [table] = Object.values(data.findResources('AWS::Glue::Table'));
    const input = table?.Properties.TableInput;
    expect(input.PartitionKeys).toEqual([{ Name: 'dt', Type: 'string' }]);
    expect(input.Parameters).toMatchObject({
      'projection.enabled': 'true',
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
    });
    expect(input.StorageDescriptor.SerdeInfo.SerializationLibrary).toBe('org.openx.data.jsonserde.JsonSerDe');
    const columns = (input.StorageDescriptor.Columns as { Name: string }[]).map((column) => column.Name);
    expect(columns).toEqual(expect.arrayContaining(['event', 'time', 'distinct_id', 'insert_id', 'props', 'received_at']));
    expect(columns).not.toContain('current_url');
    data.hasResourceProperties('AWS::Athena::WorkGroup', {
      Name: 'TopPubs-test-analytics',
      WorkGroupConfiguration: Match.objectLike({
        EnforceWorkGroupConfiguration: true,
        ResultConfiguration: Match.objectLike({ EncryptionConfiguration: { EncryptionOption: 'SSE_S3' } }),
      }),
    });
  });

  it('grants each analytics function only what its capability names', () => {
    // Prepare
    const { track, engage, figures, job } = functions;

    // Assess: the route puts on the stream and reads nothing; the figures read aggregates; the job reads events too.
    expect(actionsOf(track)).toEqual(expect.arrayContaining(['firehose:PutRecordBatch']));
    expect(resourcesText(track, 'firehose:PutRecordBatch')).toContain('Test-AnalyticsStreamArn');
    expect(actionsOf(track).filter((action) => action.startsWith('s3:'))).toEqual([]);
    expect(actionsOf(engage).filter((action) => action.startsWith('firehose:') || action.startsWith('s3:'))).toEqual([]);
    expect(actionsOf(figures).filter((action) => action.startsWith('firehose:') || action === 's3:PutObject')).toEqual([]);
    expect(resourcesText(figures, 's3:GetObject')).toContain('/aggregates/*');
    expect(resourcesText(figures, 's3:GetObject')).not.toContain('/events/*');
    expect(resourcesText(job, 's3:GetObject')).toContain('/events/*');
    expect(resourcesText(job, 's3:PutObject')).toContain('/aggregates/*');
    expect(resourcesText(job, 's3:PutObject')).not.toContain('/events/*');
    expect(actionsOf(job).filter((action) => action.startsWith('firehose:'))).toEqual([]);
  });

  it('gives the analytics functions the stream and bucket names, and no other function', () => {
    // Prepare
    const variables = (fn: lambda.Function) => {
      const stack = Stack.of(fn);
      const resource = Template.fromStack(stack).toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)];
      return resource.Properties.Environment.Variables as Record<string, unknown>;
    };

    // Assess
    expect(variables(functions.track)).toMatchObject({ ANALYTICS_ACCESS: 'put', ANALYTICS_STREAM_NAME: 'events-stream' });
    expect(variables(functions.job)).toMatchObject({ ANALYTICS_ACCESS: 'aggregate', ANALYTICS_BUCKET_NAME: 'events-bucket' });
    expect(Object.keys(variables(functions.health))).not.toContain('ANALYTICS_STREAM_NAME');
    expect(Object.keys(variables(functions.engage))).not.toContain('ANALYTICS_ACCESS');
  });
});

describe('an analytics function in a deployment without analytics storage', () => {
  it('fails synth, naming the function', () => {
    // Prepare
    const stack = new Stack(testApp(), 'NoAnalytics');
    const create = () =>
      new HandlerFunction(stack, 'Track', {
        handler: routes.trackAnalyticsEvents.handler,
        code: lambda.Code.fromInline('export const handler = async () => ({})'),
        environment: {
          table: dynamodb.Table.fromTableName(stack, 'Table', 'table'),
          mailIdentity: ses.EmailIdentity.fromEmailIdentityName(stack, 'Identity', 'example.com'),
          mailConfigurationSet: ses.ConfigurationSet.fromConfigurationSetName(stack, 'Set', 'set'),
          fileBucketArnExport: 'Test-FileBucketArn',
          deployment: { common: {}, email: {}, bucket: {}, realtime: {}, payments: {}, queues: {}, settings: {} },
        },
        capabilities: routes.trackAnalyticsEvents.capabilities,
      });

    // Assess
    expect(create).toThrow('analytics/track-events uses product analytics, but this deployment has no analytics storage');
  });
});
