import { Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { templateOf, testApp, warningsOf } from '../support/cdk-templates';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';
import type { NamedRoute } from '../../infra/cdk/stacks/route-stack';
import { createPlatform } from '../../infra/cdk/platform';
import type { Platform } from '../../infra/cdk/platform';
import { HandlerFunction } from '../../infra/cdk/constructs/handler-function';
import type { FunctionEnvironment } from '../../infra/cdk/constructs/handler-function';
import { SPA_REWRITE_FUNCTION_CODE } from '../../infra/cdk/stacks/web-stack';
import type { RouteStack } from '../../infra/cdk/stacks/route-stack';
import { capabilitiesOf, DECLARED_SETTINGS_VARIABLE, SETTING_GROUPS, type SettingGroup } from '../../shared/capabilities';
import { API_CORS, EDGE_ORIGIN_TOKEN_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/constants';
import { DEFAULT_ROUTE_TIMEOUT_SECONDS, routeEntries, routes } from '../../shared/routes/index';
import { JOB_SCHEDULES } from '../../shared/schedules';
import { type QueueName, WORK_QUEUES, workQueue } from '../../shared/queues';
import { TABLE_KEYS } from '../../shared/table';
import {
  API_VIEWER_ADDRESS_FUNCTION_CODE,
  contentSecurityPolicy,
  NO_FRAME_PATH_PATTERNS,
  REFERRER_POLICY,
  type ViewerRequestResult,
} from '../../infra/web-edge-policy';

const ORIGINS = ['https://toppubs.example', 'http://localhost:3000'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** Same feature flags as `cdk synth`, so the tests see the templates the CLI produces. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

const inlineCode = () => lambda.Code.fromInline('export const handler = async () => ({})');

function synthPlatform(webDistDir: string, routes?: readonly NamedRoute[]): Platform {
  return createPlatform(testApp({ context: cdkJsonContext() }), {
    ...(routes ? { routes } : {}),
    stage: 'test',
    allowedOrigins: ORIGINS,
    mailDomain: 'mail.toppubs.example',
    codeFor: inlineCode,
    webDistDir,
  });
}

/** Actions of every IAM policy attached to the function's execution role. */
function roleActions(fn: lambda.Function): string[] {
  const stack = Stack.of(fn);
  const roleId = stack.getLogicalId(fn.role?.node.defaultChild as never);
  const policies = templateOf(stack).findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies).flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) =>
      [statement.Action].flat(),
    ),
  );
}

/** The statements of every IAM policy attached to the function's execution role. */
function roleStatements(fn: lambda.Function): { Action: string | string[]; Resource: unknown }[] {
  const stack = Stack.of(fn);
  const roleId = stack.getLogicalId(fn.role?.node.defaultChild as never);
  const policies = templateOf(stack).findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
  });
  return Object.values(policies).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
  );
}

/** The environment variables of a function, as synthesized. */
function variablesOf(fn: lambda.Function): Record<string, unknown> {
  const stack = Stack.of(fn);
  const resource = templateOf(stack).toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)];
  return (resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** A response headers policy's CSP as text, with its one deploy-time value written as `placeholder`. */
function cspOf(policies: Record<string, Record<string, unknown>>, id: string, placeholder: string): string {
  const { ResponseHeadersPolicyConfig: config } = policies[id]?.Properties as {
    ResponseHeadersPolicyConfig: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } };
  };
  const value = config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
  if (typeof value === 'string') return value;
  const [, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return parts.map((part) => (typeof part === 'string' ? part : placeholder)).join('');
}

describe('cdk stacks for the real route table', () => {
  let platform: Platform;
  let routeTemplates: Template[];
  let distDir: string;

  beforeAll(() => {
    // Prepare: a missing web build, so no deployment asset is bundled
    distDir = path.join(mkdtempSync(path.join(tmpdir(), 'toppubs-web-')), 'missing');

    // Act
    platform = synthPlatform(distDir);
    routeTemplates = platform.routeStacks.map((stack) => templateOf(stack));
  });

  afterAll(() => rmSync(path.dirname(distDir), { recursive: true, force: true }));

  it('builds the single table from shared/table.ts with PITR, TTL and retention', () => {
    // Prepare
    const template = templateOf(platform.data);

    // Assess
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        GlobalSecondaryIndexes: TABLE_KEYS.globalIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      },
    });
    const attributes = template.findResources('AWS::DynamoDB::Table');
    const definitions = Object.values(attributes)[0]?.Properties.AttributeDefinitions as { AttributeType: string }[];
    expect(definitions).toHaveLength(6);
    expect(definitions.every((definition) => definition.AttributeType === 'S')).toBe(true);
  });

  it('blocks public access on the file bucket and the site bucket', () => {
    // Prepare
    const blockAll = {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    };

    // Assess
    for (const stack of [platform.data, platform.web]) {
      templateOf(stack).hasResourceProperties('AWS::S3::Bucket', {
        PublicAccessBlockConfiguration: blockAll,
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      });
    }
  });

  it('lets only the allowed origins POST and PUT presigned uploads into the file bucket, and read the ETag', () => {
    // Assess
    templateOf(platform.data).hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [
          Match.objectLike({
            AllowedMethods: ['POST', 'PUT', 'GET', 'HEAD'],
            AllowedOrigins: ORIGINS,
            ExposedHeaders: ['ETag', 'Content-Range', 'Accept-Ranges'],
          }),
        ],
      },
    });
  });

  it("removes a transfer's files after its retention class, and abandoned uploads after a day", () => {
    // Prepare
    const [bucket] = Object.values(
      templateOf(platform.data).findResources('AWS::S3::Bucket', { Properties: { CorsConfiguration: Match.anyValue() } }),
    );
    const rules = (bucket?.Properties.LifecycleConfiguration.Rules ?? []) as {
      AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number };
      ExpirationInDays?: number;
      TagFilters?: { Key: string; Value: string }[];
    }[];

    // Assess
    expect(rules.find((rule) => rule.AbortIncompleteMultipartUpload)?.AbortIncompleteMultipartUpload?.DaysAfterInitiation).toBe(
      1,
    );
    const byClass = new Map(
      rules.flatMap((rule) => (rule.TagFilters ? [[rule.TagFilters[0]?.Value, rule.ExpirationInDays]] : [])),
    );
    expect(byClass.get('7')).toBe(8);
    expect(byClass.get('365')).toBe(366);
    expect(byClass.size).toBe(13);
  });

  it("applies the API's CORS at API Gateway, from API_CORS, as the local runtime emulates it", () => {
    // Act
    const template = templateOf(platform.api);

    // Assess
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ORIGINS,
        AllowCredentials: true,
        AllowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
        AllowHeaders: [...API_CORS.allowHeaders],
        ExposeHeaders: ['etag', 'retry-after'],
        MaxAge: API_CORS.maxAgeSeconds,
      },
    });
  });

  it('makes one arm64 Node 22 function and one HTTP API route per route', () => {
    // Prepare
    const routeKeys = routeTemplates.flatMap((template) =>
      Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey as string),
    );
    const functions = routeTemplates.flatMap((template) => Object.values(template.findResources('AWS::Lambda::Function')));

    // Assess
    expect(routeKeys.sort()).toEqual(routeEntries.map(([, route]) => `${route.method} ${route.path}`).sort());
    expect(routeKeys).toContain('GET /api/i/toppubs/show/home');
    // The spec's `GET /api/i/penname/notifications/` reaches this key: HTTP APIs match a trailing slash to the path without it.
    expect(routeKeys).toContain('GET /api/i/penname/notifications');
    expect(functions).toHaveLength(routeEntries.length);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        // Each route's own timeout is checked below, with its memory.
        Timeout: expect.any(Number),
        Environment: {
          Variables: {
            TABLE_NAME: expect.anything(),
            ALLOWED_ORIGINS: ORIGINS.join(','),
            STAGE: 'test',
            POWERTOOLS_SERVICE_NAME: expect.any(String),
            WEB_ORIGIN: ORIGINS[0],
          },
        },
        LoggingConfig: { LogGroup: expect.anything() },
      });
    }
  });

  it('gives each route the memory and the timeout its table entry asks for, under the integration timeout', () => {
    // Assess
    for (const [name, route] of routeEntries) {
      const stack = platform.routeStacks.find((candidate) => candidate.functions.has(name));
      const fn = stack?.functions.get(name)?.function;
      expect(fn, name).toBeDefined();
      const logicalId = Stack.of(fn as lambda.Function).getLogicalId(fn?.node.defaultChild as never);
      const resource = templateOf(stack as Stack).toJSON().Resources[logicalId];
      expect(resource.Properties.MemorySize, name).toBe(route.memoryMb ?? 256);
      expect(resource.Properties.Timeout, name).toBe(route.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS);
      expect(resource.Properties.Timeout, name).toBeLessThan(29);
    }
    expect(Object.values(routes).filter((route) => route.timeoutSeconds !== undefined).length).toBeGreaterThan(0);
  });

  it('grants read-only routes no table writes and write routes read-write', () => {
    // Prepare
    const writers = routeEntries.filter(([, route]) => route.capabilities.table === 'read-write');
    const readers = routeEntries.filter(([, route]) => route.capabilities.table === 'read');
    const actionsOf = (name: string) => {
      const fn = platform.routeStacks.find((stack) => stack.functions.has(name))?.functions.get(name)?.function;
      return roleActions(fn as lambda.Function);
    };

    // Assess
    for (const [name] of readers) {
      const actions = actionsOf(name);
      expect(actions, name).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      expect(
        actions.filter((action) => WRITE_ACTIONS.includes(action)),
        name,
      ).toEqual([]);
    }
    for (const [name] of writers) {
      expect(actionsOf(name), name).toEqual(expect.arrayContaining(WRITE_ACTIONS));
    }
  });

  it('lets only the routes that send email use SES', () => {
    // Prepare
    const actionsOf = (name: string) => {
      const fn = platform.routeStacks.find((stack) => stack.functions.has(name))?.functions.get(name)?.function;
      return roleActions(fn as lambda.Function);
    };
    const senders = routeEntries.filter(([, route]) => route.capabilities.email).map(([name]) => name);

    // Assess
    // runRanking no longer mails: it queues the news (notification-fanout), whose consumer mails.
    expect(senders).toEqual([
      'sendLoginEmail',
      'deleteAccount',
      'sendVerificationEmail',
      'likeStory',
      'followUser',
      'claimStoryAuthor',
      'decideStoryReview',
      'addStoryComment',
      'addRecipient',
      'finalizeTransfer',
      'downloadAllFiles',
      'downloadFile',
      'finishRequestUpload',
      'fulfillSubscriptionInvoice',
      'cancelSubscription',
      'updateSubscriptionPaymentMethod',
      'receiveBraintreeWebhook',
      'resumeSubscription',
      'refundProCharge',
      'fulfillStoreInvoice',
      'updateStoreSubscriptionPaymentMethod',
      'addStoreSubscriptionAddOn',
      'cancelStoreSubscription',
      'removeStoreSubscriptionAddOn',
      'receiveMerchantWebhook',
      'refundStoreOrder',
    ]);
    for (const [name] of routeEntries) {
      expect(actionsOf(name).includes('ses:SendEmail'), name).toBe(senders.includes(name));
    }
  });

  it('lets only the routes that call the payment gateway read the Braintree keys, at run time, and names nothing else of them', () => {
    // Prepare
    const functionOf = (name: string) =>
      platform.routeStacks.find((stack) => stack.functions.has(name))?.functions.get(name)?.function as lambda.Function;
    const payers = routeEntries.filter(([, route]) => route.capabilities.payments).map(([name]) => name);
    const data = templateOf(platform.data);

    // Assess
    expect(payers).toEqual([
      'deleteAccount',
      'showCheckoutScreen',
      'fulfillSubscriptionInvoice',
      'cancelSubscription',
      'getPaymentClientToken',
      'updateSubscriptionPaymentMethod',
      'receiveBraintreeWebhook',
      'resumeSubscription',
      'refundProCharge',
      'runReconciliation',
    ]);
    for (const [name] of routeEntries) {
      const fn = functionOf(name);
      const stack = Stack.of(fn);
      const resources = templateOf(stack).toJSON().Resources as Record<
        string,
        { Properties: { Environment?: { Variables: Record<string, unknown> } } }
      >;
      const variables = resources[stack.getLogicalId(fn.node.defaultChild as never)]?.Properties.Environment?.Variables ?? {};
      expect(roleActions(fn).includes('secretsmanager:GetSecretValue'), name).toBe(payers.includes(name));
      expect(variables.PAYMENT_GATEWAY === 'braintree', name).toBe(payers.includes(name));
      expect(variables.BRAINTREE_SECRET_ARN !== undefined, name).toBe(payers.includes(name));
    }
    // The secret holds a generated placeholder, never a key written in the template.
    data.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'privateKey' }),
    });
    expect(JSON.stringify(data.toJSON())).not.toMatch(/privateKey"\s*:\s*"[^"]/);
  });

  it("keeps merchants' keys under a rotated, retained KMS key that only the routes declaring merchantKeys may use", () => {
    // Prepare
    const data = templateOf(platform.data);
    const keyId = platform.data.getLogicalId(platform.data.merchantKeysKey.node.defaultChild as never);
    const functionOf = (name: string) =>
      platform.routeStacks.find((stack) => stack.functions.has(name))?.functions.get(name)?.function as lambda.Function;
    const kmsActionsOf = (fn: lambda.Function) =>
      roleStatements(fn).flatMap((statement) => [statement.Action].flat().filter((action) => action.startsWith('kms:')));

    // Assess
    data.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({ EnableKeyRotation: true }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(Object.keys(data.findResources('AWS::KMS::Key'))).toEqual([keyId]);
    for (const [name, route] of routeEntries) {
      const fn = functionOf(name);
      const variables = variablesOf(fn);
      const expected = { none: [], seal: ['kms:GenerateDataKey'], open: ['kms:Decrypt', 'kms:GenerateDataKey'] }[
        route.capabilities.merchantKeys
      ];
      expect(kmsActionsOf(fn).sort(), name).toEqual(expected);
      for (const statement of roleStatements(fn).filter((each) => [each.Action].flat().some((a) => a.startsWith('kms:')))) {
        // That key only: its ARN, imported from the data stack.
        expect(JSON.stringify(statement.Resource), name).toMatch(/^\{"Fn::ImportValue":"[^"]*MerchantKeysKey[^"]*Arn[^"]*"\}$/);
      }
      expect(variables.MERCHANT_KEYS === 'kms', name).toBe(route.capabilities.merchantKeys !== 'none');
      expect(variables.MERCHANT_KEYS_MODE, name).toBe(
        route.capabilities.merchantKeys === 'none' ? undefined : route.capabilities.merchantKeys,
      );
      // Never the local stand-in's settings in AWS.
      expect(variables.MERCHANT_GATEWAY_URL, name).toBeUndefined();
      expect(variables.MERCHANT_KEYS_FILE, name).toBeUndefined();
    }
  });

  it('lets only read-write routes write under files/, where finalize keeps checked bytes: the routes that sign uploads may not', () => {
    // Prepare
    const functionOf = (name: string) =>
      platform.routeStacks.find((stack) => stack.functions.has(name))?.functions.get(name)?.function as lambda.Function;
    const writeResourcesOf = (fn: lambda.Function) =>
      roleStatements(fn)
        .filter((statement) => [statement.Action].flat().includes('s3:PutObject'))
        .map((statement) => JSON.stringify(statement.Resource))
        .join(' ');

    // Assess
    const writers = routeEntries.filter(([, route]) => ['write', 'read-write'].includes(route.capabilities.bucket));
    expect(writers.map(([name]) => name)).toEqual(expect.arrayContaining(['createBRecord', 'finalizeBRecord']));
    for (const [name, route] of writers) {
      const resources = writeResourcesOf(functionOf(name));
      expect(resources, name).toContain('/transfers/*');
      expect(resources, name).toContain('/images/*');
      expect(resources.includes('/files/*'), name).toBe(route.capabilities.bucket === 'read-write');
    }
  });

  it('serves the WebSocket API with its three functions, and lets only the pushing routes post to its connections', () => {
    // Prepare
    const realtime = templateOf(platform.realtime);
    const pushPolicyId = platform.realtime.getLogicalId(platform.realtime.pushPolicy.node.defaultChild as never);
    const pushers = routeEntries.filter(([, route]) => route.capabilities.realtime).map(([name]) => name);
    const environmentOf = (name: string) => {
      const stack = platform.routeStacks.find((candidate) => candidate.functions.has(name)) as RouteStack;
      const fn = stack.functions.get(name)?.function as lambda.Function;
      const resources = templateOf(stack).toJSON().Resources as Record<string, { Properties: Record<string, unknown> }>;
      const roleId = stack.getLogicalId(fn.role?.node.defaultChild as never);
      return {
        variables: (
          resources[stack.getLogicalId(fn.node.defaultChild as never)]?.Properties.Environment as {
            Variables: Record<string, unknown>;
          }
        ).Variables,
        managedPolicies: JSON.stringify(resources[roleId]?.Properties.ManagedPolicyArns ?? []),
      };
    };

    // Assess: the API
    realtime.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'WEBSOCKET',
      RouteSelectionExpression: '$request.body.action',
    });
    for (const routeKey of ['$connect', '$disconnect', '$default']) {
      realtime.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: routeKey });
    }
    // Only $default answers down the connection (pings).
    realtime.resourceCountIs('AWS::ApiGatewayV2::RouteResponse', 1);
    realtime.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('connectionId') }),
    });
    realtime.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: {
        Statement: [Match.objectLike({ Action: 'execute-api:ManageConnections', Effect: 'Allow' })],
        Version: Match.anyValue(),
      },
    });

    // Assess: who may push
    expect(pushers).toEqual([
      'likeStory',
      'followUser',
      'claimStoryAuthor',
      'decideStoryReview',
      'addStoryComment',
      'markNotificationsSeen',
      'addRecipient',
      'finalizeTransfer',
      'downloadAllFiles',
      'downloadFile',
      'finishRequestUpload',
      'cancelSubscription',
      'updateSubscriptionPaymentMethod',
      'receiveBraintreeWebhook',
      'refundProCharge',
      'fulfillStoreInvoice',
      'updateStoreSubscriptionPaymentMethod',
      'addStoreSubscriptionAddOn',
      'cancelStoreSubscription',
      'removeStoreSubscriptionAddOn',
      'receiveMerchantWebhook',
      'refundStoreOrder',
    ]);
    for (const [name] of routeEntries) {
      const { variables, managedPolicies } = environmentOf(name);
      expect(variables.REALTIME_URL, name).toBeDefined();
      expect(variables.REALTIME_MANAGEMENT_ENDPOINT !== undefined, name).toBe(pushers.includes(name));
      expect(managedPolicies.includes(pushPolicyId), name).toBe(pushers.includes(name));
    }
  });

  it('runs rank-publications hourly and collect-feeds with a longer timeout', () => {
    // Prepare
    const template = templateOf(platform.jobs);
    const functionId = (name: string) => {
      const fn = platform.jobs.functions.get(name)?.function as lambda.Function;
      return platform.jobs.getLogicalId(fn.node.defaultChild as never);
    };

    // Assess
    template.resourceCountIs('AWS::Lambda::Function', JOB_SCHEDULES.length);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId('rank-publications'), 'Arn'] } })],
    });
    const resources = template.toJSON().Resources;
    expect(resources[functionId('rank-publications')].Properties).toMatchObject({ MemorySize: 2048, Timeout: 300 });
    expect(resources[functionId('collect-feeds')].Properties).toMatchObject({ MemorySize: 1024, Timeout: 600 });
    // It writes the boards and queues the followers' news; the fan-out consumer mails and pushes.
    const rankActions = roleActions(platform.jobs.functions.get('rank-publications')?.function as lambda.Function);
    expect(rankActions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'sqs:SendMessage']));
    expect(rankActions.filter((action) => action.startsWith('ses:') || action.startsWith('execute-api:'))).toEqual([]);
  });

  it('queues the digest weekly, and alarms only after seven days without a run', () => {
    // Prepare
    const template = templateOf(platform.jobs);
    const digest = platform.jobs.functions.get('send-publication-digest')?.function as lambda.Function;

    // Assess
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(7 days)',
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [platform.jobs.getLogicalId(digest.node.defaultChild as never), 'Arn'] } }),
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('^send-publication-digest has not run for 7 days'),
      Period: 86_400,
      EvaluationPeriods: 7,
      DatapointsToAlarm: 7,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('^rank-publications has not run for 2 hours'),
      Period: 7_200,
      EvaluationPeriods: 1,
    });
    // It only reads who follows what and queues them: the publication-digest consumer mails.
    expect(roleActions(digest)).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(roleActions(digest)).not.toContain('ses:SendEmail');
    expect(roleActions(digest)).not.toContain('dynamodb:PutItem');
  });

  it('makes the source-collection queue FIFO, encrypted, TLS-only, with a FIFO dead-letter queue after 3 deliveries', () => {
    // Prepare
    const template = templateOf(platform.queues);
    const declared = workQueue('source-collection');
    const deployed = platform.queues.queues.get('source-collection');
    const logicalId = (queue: unknown) =>
      platform.queues.getLogicalId((queue as { node: { defaultChild: never } }).node.defaultChild);

    // Assess
    expect(deployed).toBeDefined();
    template.resourceCountIs('AWS::SQS::Queue', WORK_QUEUES.length * 2);
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      // Senders give each message its deduplication id.
      ContentBasedDeduplication: false,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: declared.visibilityTimeoutSeconds,
      MessageRetentionPeriod: 2 * 24 * 3600,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(deployed?.deadLetterQueue), 'Arn'] }, maxReceiveCount: 3 },
    });
    const deadLetters = template.toJSON().Resources[logicalId(deployed?.deadLetterQueue)];
    expect(deadLetters.Properties).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    expect(deadLetters.Properties.RedrivePolicy).toBeUndefined();
    for (const queue of [deployed?.queue, deployed?.deadLetterQueue]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: logicalId(queue) }],
        PolicyDocument: {
          Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })],
          Version: Match.anyValue(),
        },
      });
    }
  });

  it('feeds collect-sources one message at a time, reporting failed messages, hidden 6 times its timeout', () => {
    // Prepare
    const template = templateOf(platform.queues);
    const deployed = platform.queues.queues.get('source-collection');
    const consumer = deployed?.consumer.function as lambda.Function;
    const consumerId = platform.queues.getLogicalId(consumer.node.defaultChild as never);
    const queueId = platform.queues.getLogicalId(deployed?.queue.node.defaultChild as never);
    const resources = template.toJSON().Resources;

    // Assess
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', WORK_QUEUES.length);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: consumerId },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[consumerId].Properties).toMatchObject({
      Description: 'ranking/collect-sources',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 600,
    });
    expect(resources[queueId].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * resources[consumerId].Properties.Timeout);
    // It consumes its queue (granted by the event source), and sends to it what a run could not
    // reach (its capabilities name the queue): the URL and sqs:SendMessage on that queue alone.
    expect(roleActions(consumer)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'dynamodb:PutItem']),
    );
    const sends = roleStatements(consumer).filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    expect(variablesOf(consumer).SOURCE_COLLECTION_QUEUE_URL).toEqual({ Ref: queueId });
  });

  it('lets plan-source-collection send to the source-collection queue, with its URL, and nothing else', () => {
    // Prepare
    const planner = platform.jobs.functions.get('plan-source-collection')?.function as lambda.Function;
    const queueId = platform.queues.getLogicalId(
      platform.queues.queues.get('source-collection')?.queue.node.defaultChild as never,
    );
    const sendStatements = roleStatements(planner).filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('sqs:')),
    );

    const sendActions = [sendStatements[0]?.Action ?? []].flat();

    // Assess: the one queue's ARN and URL, imported from the queues stack.
    expect(sendStatements).toHaveLength(1);
    expect(sendActions).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(sendActions.filter((action) => /Receive|Delete/.test(action))).toEqual([]);
    expect(JSON.stringify(sendStatements[0]?.Resource)).toMatch(new RegExp(`Fn::ImportValue.*Queues.*${queueId}Arn`));
    expect(JSON.stringify(variablesOf(planner).SOURCE_COLLECTION_QUEUE_URL)).toMatch(
      new RegExp(`Fn::ImportValue.*Queues.*Ref${queueId}`),
    );
    expect(roleActions(planner).filter((action) => WRITE_ACTIONS.includes(action))).toEqual([]);
  });

  it('gives no other route or job any SQS action or queue URL', () => {
    // Prepare
    const functions = [
      ...platform.routeStacks.flatMap((stack) => [...stack.functions]),
      ...platform.jobs.functions,
      ...platform.realtime.functions,
    ];
    const senders = [...JOB_SCHEDULES, ...routeEntries.map(([, route]) => route)]
      .filter((declaration) => declaration.capabilities.queues.length > 0)
      .map((declaration) => declaration.handler);
    const loadPubs = platform.routeStacks.find((stack) => stack.functions.has('loadPubs'))?.functions.get('loadPubs');

    // The senders, each with the one queue it names: the planner, the ranking job and its
    // superuser route (a run queues its followers' news), and the digest (its readers' pages).
    const sendsTo: Record<string, QueueName> = {
      'plan-source-collection': 'source-collection',
      'rank-publications': 'notification-fanout',
      'send-publication-digest': 'publication-digest',
      runRanking: 'notification-fanout',
    };

    // Assess
    expect(senders).toEqual([
      'ranking/rank-publications',
      'ranking/send-publication-digest',
      'ranking/plan-source-collection',
      'ranking/run-ranking',
    ]);
    expect(loadPubs).toBeDefined();
    expect(roleActions(loadPubs?.function as lambda.Function).filter((action) => action.startsWith('sqs:'))).toEqual([]);
    expect(variablesOf(loadPubs?.function as lambda.Function).SOURCE_COLLECTION_QUEUE_URL).toBeUndefined();
    for (const [name, handlerFunction] of functions) {
      const fn = handlerFunction.function;
      const own = sendsTo[name];
      if (!own) {
        expect(
          roleActions(fn).filter((action) => action.startsWith('sqs:')),
          name,
        ).toEqual([]);
      }
      for (const queue of WORK_QUEUES) {
        if (queue.name === own) expect(variablesOf(fn)[queue.urlVariable], name).toBeDefined();
        else expect(variablesOf(fn)[queue.urlVariable], name).toBeUndefined();
      }
    }
  });

  it('fans notifications out through a standard queue: pages of 10, four consumers at most, each failed message retried alone', () => {
    // Prepare
    const template = templateOf(platform.queues);
    const declared = workQueue('notification-fanout');
    const deployed = platform.queues.queues.get('notification-fanout');
    const consumer = deployed?.consumer.function as lambda.Function;
    const consumerId = platform.queues.getLogicalId(consumer.node.defaultChild as never);
    const queueId = platform.queues.getLogicalId(deployed?.queue.node.defaultChild as never);
    const deadLettersId = platform.queues.getLogicalId(deployed?.deadLetterQueue.node.defaultChild as never);
    const resources = template.toJSON().Resources;

    // Assess: a standard queue (no FIFO attributes), its dead letters after 5 deliveries.
    expect(resources[queueId].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: declared.visibilityTimeoutSeconds,
      MessageRetentionPeriod: 24 * 3600,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(resources[queueId].Properties.FifoQueue).toBeUndefined();
    expect(resources[queueId].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * resources[consumerId].Properties.Timeout);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: consumerId },
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 4 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[consumerId].Properties).toMatchObject({ Description: 'notifications/fan-out-notifications', Timeout: 120 });
    // It writes notifications, sends an event's next pages to its own queue, pushes and mails.
    expect(roleActions(consumer)).toEqual(
      expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'sqs:SendMessage', 'ses:SendEmail']),
    );
    expect(variablesOf(consumer).REALTIME_MANAGEMENT_ENDPOINT).toBeDefined();
    const sends = roleStatements(consumer).filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    expect(variablesOf(consumer).NOTIFICATION_FANOUT_QUEUE_URL).toEqual({ Ref: queueId });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Threshold: 15 * 60,
      AlarmDescription: Match.stringLikeRegexp('^notification-fanout: .*docs/operations.md#queue-falling-behind'),
    });
  });

  it('alarms when a message lands in the dead-letter queue and when the oldest message is over 26 hours old', () => {
    // Prepare
    const template = templateOf(platform.queues);
    const deployed = platform.queues.queues.get('source-collection');
    const queueName = (queue: unknown) => ({
      'Fn::GetAtt': [platform.queues.getLogicalId((queue as { node: { defaultChild: never } }).node.defaultChild), 'QueueName'],
    });
    const notifies = { 'Fn::ImportValue': Match.stringLikeRegexp('Monitoring:.*Alarms') };

    // Assess
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: queueName(deployed?.deadLetterQueue) }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      AlarmDescription: Match.stringLikeRegexp('^source-collection: .*docs/operations.md#queue-dead-letters'),
      AlarmActions: [notifies],
      OKActions: [notifies],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Statistic: 'Maximum',
      Dimensions: [{ Name: 'QueueName', Value: queueName(deployed?.queue) }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 26 * 3600,
      TreatMissingData: 'notBreaching',
      AlarmDescription: Match.stringLikeRegexp('^source-collection: .*docs/operations.md#queue-falling-behind'),
      AlarmActions: [notifies],
      OKActions: [notifies],
    });
    // Two per queue, and the consumer's errors and throttles.
    template.resourceCountIs('AWS::CloudWatch::Alarm', WORK_QUEUES.length * 4);
  });

  it('serves the site through CloudFront with OAC and routes /api/* to the HTTP API', () => {
    // Prepare
    const template = templateOf(platform.web);

    // Assess
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: Match.absent(),
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
        CacheBehaviors: Match.arrayWith([
          Match.objectLike({
            PathPattern: '/api/*',
            AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
            ViewerProtocolPolicy: 'redirect-to-https',
            OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
            FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
          }),
        ]),
        Origins: Match.arrayWith([
          Match.objectLike({ OriginAccessControlId: Match.anyValue(), S3OriginConfig: Match.anyValue() }),
          Match.objectLike({
            DomainName: { 'Fn::Select': [2, { 'Fn::Split': ['/', Match.anyValue()] }] },
            CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }),
            // The edge's proof, resolved from the data stack's secret at deploy time, never in the template
            OriginCustomHeaders: [
              {
                HeaderName: EDGE_ORIGIN_TOKEN_HEADER,
                HeaderValue: { 'Fn::Join': ['', Match.arrayWith(['{{resolve:secretsmanager:'])] },
              },
            ],
          }),
        ]),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        DefaultTTL: 0,
        MinTTL: 0,
        MaxTTL: 86400,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'all' },
          HeadersConfig: { HeaderBehavior: 'none' },
          EnableAcceptEncodingGzip: true,
          EnableAcceptEncodingBrotli: true,
        }),
      }),
    });
  });

  it("tells the API each viewer's own address, over any the viewer sent, and every function the token that vouches for it", () => {
    // Prepare: the /api/* function as CloudFront runs it
    const context = vm.createContext({});
    vm.runInContext(API_VIEWER_ADDRESS_FUNCTION_CODE, context);
    const request = { uri: '/api/e/analytics/track', headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.0.0.1' } } };

    // Act
    const forwarded = vm.runInContext(
      `handler({ viewer: { ip: '203.0.113.7' }, request: ${JSON.stringify(request)} })`,
      context,
    ) as { headers: Record<string, { value: string }> };

    // Assess
    expect(forwarded.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
    const environment = Object.values((routeTemplates[0] as Template).findResources('AWS::Lambda::Function')).map(
      (resource) => (resource.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables,
    );
    expect(environment.length).toBeGreaterThan(0);
    for (const variables of environment) expect(JSON.stringify(variables?.EDGE_ORIGIN_TOKEN)).toMatch(/resolve:secretsmanager:/);
  });

  it('keeps API 403/404 answers intact: no distribution-wide error pages', () => {
    // Assess
    templateOf(platform.web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ CustomErrorResponses: Match.absent() }),
    });
  });

  it('answers client-side routes with index.html and leaves static files alone', () => {
    // Prepare
    const context = vm.createContext({});
    vm.runInContext(SPA_REWRITE_FUNCTION_CODE, context);
    const rewrite = (uri: string) =>
      (vm.runInContext(`handler({ request: { uri: ${JSON.stringify(uri)} } })`, context) as { uri: string }).uri;

    // Act
    const rewritten = [
      '/',
      '/growing/active',
      '/topic/tech/growing',
      '/@jane.doe',
      '/pub/some-slug',
      '/me',
      '/login/confirm',
    ].map(rewrite);
    const kept = ['/assets/index-3f2a.js', '/assets/logo.svg', '/favicon.ico', '/robots.txt', '/og/toppubs-1500.png'].map(
      rewrite,
    );

    // Assess
    expect(new Set(rewritten)).toEqual(new Set(['/index.html']));
    expect(kept).toEqual(['/assets/index-3f2a.js', '/assets/logo.svg', '/favicon.ico', '/robots.txt', '/og/toppubs-1500.png']);
  });

  it('redirects other spellings of the no-frame pages to the path their behaviour matches', () => {
    // Prepare
    const context = vm.createContext({});
    vm.runInContext(SPA_REWRITE_FUNCTION_CODE, context);
    const run = (uri: string, querystring: Record<string, { value: string }> = {}) =>
      vm.runInContext(`handler(${JSON.stringify({ request: { uri, querystring } })})`, context) as ViewerRequestResult;
    const location = (result: ViewerRequestResult) => ('statusCode' in result ? result.headers.location?.value : undefined);

    // Act
    const redirected = [
      run('/ME'),
      run('/Me/sessions'),
      run('/%6De'),
      run('/LOGIN/confirm', { token: { value: 'AbC%2B1' } }),
      run('/Logout'),
    ];
    const untouched = [run('/me'), run('/me/'), run('/login/confirm'), run('/media'), run('/@me'), run('/%E0%A4%A')];

    // Assess
    expect(redirected.map((result) => ('statusCode' in result ? result.statusCode : 200))).toEqual([301, 301, 301, 301, 301]);
    expect(redirected.map(location)).toEqual(['/me', '/me/sessions', '/me', '/login/confirm?token=AbC%2B1', '/logout']);
    expect(untouched.every((result) => !('statusCode' in result))).toBe(true);
  });

  it('sends the shared security headers with HSTS, and refuses framing only on the account and login pages', () => {
    // Prepare
    const template = templateOf(platform.web);
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    const policyId = (comment: string) => {
      const entry = Object.entries(policies).find(
        ([, resource]) => (resource.Properties.ResponseHeadersPolicyConfig as { Comment: string }).Comment === comment,
      );
      if (!entry) throw new Error(`no response headers policy commented '${comment}'`);
      return entry[0];
    };
    const hsts = {
      AccessControlMaxAgeSec: Match.anyValue(),
      IncludeSubdomains: true,
      Override: true,
    };
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]?.Properties
      .DistributionConfig as {
      DefaultCacheBehavior: { ResponseHeadersPolicyId: unknown };
      CacheBehaviors: { PathPattern: string; ResponseHeadersPolicyId: unknown; FunctionAssociations?: unknown[] }[];
    };
    const siteHeaders = policyId('Web app security headers (framing allowed)');
    const noFrameHeaders = policyId('Web app security headers (framing denied)');
    const apiHeaders = policyId('API security headers');

    // Assess: the policies
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        Comment: 'Web app security headers (framing allowed)',
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.anyValue(), Override: true },
          ContentTypeOptions: { Override: true },
          ReferrerPolicy: { ReferrerPolicy: REFERRER_POLICY, Override: true },
          StrictTransportSecurity: hsts,
        },
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        Comment: 'Web app security headers (framing denied)',
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.anyValue(), Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
          StrictTransportSecurity: hsts,
        },
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        Comment: 'API security headers',
        SecurityHeadersConfig: { ContentTypeOptions: { Override: true }, StrictTransportSecurity: hsts },
      }),
    });
    for (const policy of Object.values(policies)) {
      const config = policy.Properties.ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: { StrictTransportSecurity: { AccessControlMaxAgeSec: number } };
      };
      expect(config.SecurityHeadersConfig.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    }
    // The policies are the shared ones, plus the WebSocket API's and the file bucket's origins
    // (deploy-time values, each shown here as the placeholder) to connect to.
    const deployed = '<deploy-time>';
    const sources = { connectSources: [deployed], fileSources: [`https://${deployed}`] };
    expect(cspOf(policies, siteHeaders, deployed)).toBe(contentSecurityPolicy('allowed', sources));
    expect(cspOf(policies, noFrameHeaders, deployed)).toBe(contentSecurityPolicy('denied', sources));
    expect(JSON.stringify(policies[siteHeaders])).toMatch(/Fn::ImportValue.*Realtime.*WebSocketApi/);
    expect(JSON.stringify(policies[siteHeaders])).toMatch(/Fn::ImportValue.*Data.*FileBucket.*RegionalDomainName/);
    expect(contentSecurityPolicy('allowed')).not.toContain('frame-ancestors');
    expect(contentSecurityPolicy('denied')).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy('allowed')).not.toContain('unsafe-eval');

    // Assess: which behaviour gets which
    const byPattern = new Map(distribution.CacheBehaviors.map((behavior) => [behavior.PathPattern, behavior]));
    expect(distribution.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: siteHeaders });
    expect(byPattern.get('/api/*')?.ResponseHeadersPolicyId).toEqual({ Ref: apiHeaders });
    expect(NO_FRAME_PATH_PATTERNS).toEqual(['/me', '/me/*', '/login', '/login/*', '/logout', '/logout/*']);
    for (const pattern of NO_FRAME_PATH_PATTERNS) {
      expect(byPattern.get(pattern)?.ResponseHeadersPolicyId).toEqual({ Ref: noFrameHeaders });
      expect(byPattern.get(pattern)?.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
    }
  });

  it('warns at synth time and deploys nothing when web/dist is missing', () => {
    // Assess
    templateOf(platform.web).resourceCountIs('Custom::CDKBucketDeployment', 0);
    expect(warningsOf(platform.web)).toEqual(expect.arrayContaining([expect.stringMatching(/does not exist/)]));
  });

  it('creates the SES identity for the configured mail domain', () => {
    // Assess
    templateOf(platform.email).hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'mail.toppubs.example',
    });
  });
});

describe('web stack with a built web app', () => {
  it('deploys web/dist to the site bucket and invalidates CloudFront', () => {
    // Prepare
    const distDir = mkdtempSync(path.join(tmpdir(), 'toppubs-web-'));
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');

    try {
      // Act: no routes, which the site's deployment does not depend on (the whole app takes seconds to synthesize).
      const platform = synthPlatform(distDir, []);

      // Assess
      templateOf(platform.web).hasResourceProperties('Custom::CDKBucketDeployment', {
        DistributionPaths: ['/*'],
      });
    } finally {
      rmSync(distDir, { recursive: true, force: true });
    }
  });
});

describe('optional provider settings', () => {
  const configured = {
    GOOGLE_ISSUER: 'https://accounts.google.com',
    GOOGLE_CLIENT_ID: 'client-1',
    GOOGLE_REDIRECT_URI: 'https://toppubs.example/api/i/user/auth/login/google/callback',
    TWITTER_AUTHORIZE_URL: 'https://twitter.com/i/oauth2/authorize',
    TWITTER_TOKEN_URL: 'https://api.twitter.com/2/oauth2/token',
    TWITTER_USER_URL: 'https://api.twitter.com/2/users/me',
    TWITTER_CLIENT_ID: 'twitter-1',
    TWITTER_REDIRECT_URI: 'https://toppubs.example/api/i/user/auth/login/twitter/callback',
    RECAPTCHA_PROJECT_ID: 'project-1',
    RECAPTCHA_SITE_KEY: 'site-1',
    SUGGESTION_AUTO_ACCEPT_FOLLOWERS: '5000',
    secretName: 'toppubs/test',
  } as const;
  let platform: Platform;
  const variablesOf = (stacks: readonly Stack[], name: string) => {
    const stack = stacks.find((candidate) =>
      (candidate as unknown as { functions: Map<string, unknown> }).functions.has(name),
    ) as Stack;
    const fn = (stack as unknown as { functions: Map<string, { function: lambda.Function }> }).functions.get(name)?.function;
    const logicalId = stack.getLogicalId(fn?.node.defaultChild as never);
    return templateOf(stack).toJSON().Resources[logicalId].Properties.Environment.Variables as Record<string, unknown>;
  };

  beforeAll(() => {
    platform = createPlatform(testApp({ context: cdkJsonContext() }), {
      stage: 'test',
      allowedOrigins: ORIGINS,
      mailDomain: 'mail.toppubs.example',
      codeFor: inlineCode,
      webDistDir: '/nonexistent',
      providers: configured,
    });
    // Synthesized here, in the hook's time, rather than in the first test's.
    templateOf(platform.api);
  });

  it('give every route exactly the setting groups it declares, each configured value included', () => {
    for (const [name, route] of routeEntries) {
      // Act
      const variables = variablesOf(platform.routeStacks, name);

      // Assess: what the handler may read (its declared groups) is what reached it, and no other group.
      expect(variables[DECLARED_SETTINGS_VARIABLE], name).toBe([...route.capabilities.settings].sort().join(','));
      for (const group of Object.keys(SETTING_GROUPS) as SettingGroup[]) {
        const declared = route.capabilities.settings.includes(group);
        for (const variable of SETTING_GROUPS[group].variables) {
          expect(variables[variable], `${name} ${variable}`).toBe(declared ? configured[variable] : undefined);
        }
        for (const secret of SETTING_GROUPS[group].secrets) {
          if (declared) {
            expect(JSON.stringify(variables[secret]), `${name} ${secret}`).toContain(
              `{{resolve:secretsmanager:toppubs/test:SecretString:${secret}`,
            );
          } else {
            expect(variables[secret], `${name} ${secret}`).toBeUndefined();
          }
        }
      }
      expect('MAIL_FROM' in variables, `${name} MAIL_FROM`).toBe(route.capabilities.email);
    }
  });

  it('reach the Twitter sign-in routes, so Twitter login is configured in AWS as it is locally', () => {
    // Act
    const login = variablesOf(platform.routeStacks, 'twitterLoginUrl');
    const callback = variablesOf(platform.routeStacks, 'twitterCallback');

    // Assess
    for (const variables of [login, callback]) {
      expect(variables.TWITTER_CLIENT_ID).toBe('twitter-1');
      expect(variables.TWITTER_AUTHORIZE_URL).toBe(configured.TWITTER_AUTHORIZE_URL);
      expect(JSON.stringify(variables.TWITTER_CLIENT_SECRET)).toContain('TWITTER_CLIENT_SECRET');
    }
  });

  it('leave a group unconfigured (no secret reference) when none of its values is set', () => {
    // Prepare
    const bare = createPlatform(testApp({ context: cdkJsonContext() }), {
      // The one route looked at: the whole table takes seconds to synthesize.
      routes: routeEntries.filter(([name]) => name === 'googleLoginUrl'),
      stage: 'bare',
      allowedOrigins: ORIGINS,
      mailDomain: 'mail.toppubs.example',
      codeFor: inlineCode,
      webDistDir: '/nonexistent',
      providers: { secretName: 'toppubs/test' },
    });

    // Act
    const google = variablesOf(bare.routeStacks, 'googleLoginUrl');

    // Assess
    expect(google[DECLARED_SETTINGS_VARIABLE]).toBe(routes.googleLoginUrl.capabilities.settings.toSorted().join(','));
    expect(Object.keys(google).filter((key) => key.startsWith('GOOGLE_'))).toEqual([]);
  });
});

describe('a function that sends to a work queue', () => {
  const environmentIn = (stack: Stack, queues: FunctionEnvironment['queues']): FunctionEnvironment => ({
    table: dynamodb.Table.fromTableName(stack, 'Table', 'table'),
    mailIdentity: ses.EmailIdentity.fromEmailIdentityName(stack, 'Identity', 'example.com'),
    mailConfigurationSet: ses.ConfigurationSet.fromConfigurationSetName(stack, 'Set', 'set'),
    fileBucketArnExport: 'Test-FileBucketArn',
    queues,
    deployment: { common: {}, email: {}, bucket: {}, realtime: {}, payments: {}, queues: {}, settings: {} },
  });

  it('fails synth, naming the function and the queue, when the deployment has no such queue', () => {
    // Prepare
    const stack = new Stack(testApp(), 'Bare');
    const props = {
      handler: 'ranking/plan-source-collection',
      code: inlineCode(),
      environment: environmentIn(stack, undefined),
      capabilities: capabilitiesOf({ queues: ['source-collection'] }, { table: 'read' }),
    };

    // Act
    const create = () => new HandlerFunction(stack, 'Planner', props);

    // Assess
    expect(create).toThrow(
      'ranking/plan-source-collection sends to the source-collection queue, but this deployment has no such queue',
    );
  });
});

describe("a function that seals or opens merchants' keys", () => {
  function functionsWithKey() {
    const stack = new Stack(testApp(), 'Keys');
    const key = new kms.Key(stack, 'MerchantKeys', { enableKeyRotation: true });
    const otherKey = new kms.Key(stack, 'OtherKey', { enableKeyRotation: true });
    const environment: FunctionEnvironment = {
      table: dynamodb.Table.fromTableName(stack, 'Table', 'table'),
      mailIdentity: ses.EmailIdentity.fromEmailIdentityName(stack, 'Identity', 'example.com'),
      mailConfigurationSet: ses.ConfigurationSet.fromConfigurationSetName(stack, 'Set', 'set'),
      fileBucketArnExport: 'Test-FileBucketArn',
      merchantKeysKey: key,
      deployment: {
        common: {},
        email: {},
        bucket: {},
        realtime: {},
        payments: {},
        merchantKeys: { MERCHANT_KEYS: 'kms', MERCHANT_KEYS_KMS_KEY_ARN: key.keyArn },
        queues: {},
        settings: {},
      },
    };
    const make = (id: string, merchantKeys: 'none' | 'seal' | 'open') =>
      new HandlerFunction(stack, id, {
        handler: `penpay/${id}`,
        code: inlineCode(),
        environment,
        capabilities: capabilitiesOf({ merchantKeys }, { table: 'read-write' }),
      }).function;
    const functions = { open: make('Open', 'open'), seal: make('Seal', 'seal'), none: make('None', 'none') };
    return { stack, key, otherKey, functions };
  }

  it("gets kms:Decrypt ('open') or only kms:GenerateDataKey ('seal') on that key alone; without the capability, nothing", () => {
    // Prepare
    const { stack, key, functions } = functionsWithKey();
    const keyArn = { 'Fn::GetAtt': [stack.getLogicalId(key.node.defaultChild as never), 'Arn'] };
    const kmsStatementsOf = (fn: lambda.Function) =>
      roleStatements(fn).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:')));

    // Assess
    expect(kmsStatementsOf(functions.open)).toEqual([
      expect.objectContaining({ Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Resource: keyArn }),
    ]);
    expect(kmsStatementsOf(functions.seal)).toEqual([
      expect.objectContaining({ Action: 'kms:GenerateDataKey', Resource: keyArn }),
    ]);
    expect(kmsStatementsOf(functions.none)).toEqual([]);
    expect(variablesOf(functions.open)).toMatchObject({ MERCHANT_KEYS: 'kms', MERCHANT_KEYS_MODE: 'open' });
    expect(variablesOf(functions.none).MERCHANT_KEYS).toBeUndefined();
    // No key policy names the functions: the key trusts the account's IAM policies, scoped per role above.
    const keyPolicy = JSON.stringify(templateOf(stack).findResources('AWS::KMS::Key'));
    expect(keyPolicy).not.toMatch(/kms:Decrypt[^*]*Role/);
  });

  it('fails synth, naming the function, when the deployment has no merchant keys key', () => {
    // Prepare
    const stack = new Stack(testApp(), 'NoKey');
    const create = () =>
      new HandlerFunction(stack, 'Open', {
        handler: 'penpay/open',
        code: inlineCode(),
        environment: {
          table: dynamodb.Table.fromTableName(stack, 'Table', 'table'),
          mailIdentity: ses.EmailIdentity.fromEmailIdentityName(stack, 'Identity', 'example.com'),
          mailConfigurationSet: ses.ConfigurationSet.fromConfigurationSetName(stack, 'Set', 'set'),
          fileBucketArnExport: 'Test-FileBucketArn',
          deployment: { common: {}, email: {}, bucket: {}, realtime: {}, payments: {}, queues: {}, settings: {} },
        },
        capabilities: capabilitiesOf({ merchantKeys: 'open' }, { table: 'read' }),
      });

    // Assess
    expect(create).toThrow("penpay/open seals merchant keys, but this deployment has no merchant keys' KMS key");
  });
});
