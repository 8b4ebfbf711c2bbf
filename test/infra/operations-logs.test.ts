import { Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { templateOf, testApp } from '../support/cdk-templates';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';
import { FIXED_PER_MONTH } from '../../infra/build/route-costs';
import { createPlatform, type Platform } from '../../infra/cdk/platform';
import { API_ACCESS_LOG_FORMAT } from '../../infra/cdk/stacks/api-stack';
import { ALARM_THRESHOLDS } from '../../infra/cdk/stacks/monitoring-stack';
import { SES_REPUTATION_ALARMS } from '../../infra/cdk/stacks/email-stack';
import { FUNCTION_ERRORS_THRESHOLD } from '../../infra/cdk/constructs/handler-function';
import { MAIL_HOURLY_CAP_WARNING } from '../../shared/constants';
import { routeEntries } from '../../shared/routes/index';
import { WORK_QUEUES } from '../../shared/queues';
import { JOB_SCHEDULES } from '../../shared/schedules';
import { TABLE_KEYS } from '../../shared/table';

const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/site';

let platform: Platform;
let missingWebDist: string;

beforeAll(() => {
  // Prepare: production settings, no web build (no deployment asset to bundle)
  missingWebDist = path.join(mkdtempSync(path.join(tmpdir(), 'toppubs-web-')), 'missing');
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

  // Act
  platform = createPlatform(testApp({ context: cdkJson.context }), {
    stage: 'prod',
    allowedOrigins: ['https://toppubs.example'],
    mailDomain: 'toppubs.example',
    siteCertificateArn: CERTIFICATE_ARN,
    alarmEmail: 'oncall@toppubs.example',
    monthlyBudgetUsd: 50,
    codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
    webDistDir: missingWebDist,
  });
  // The app is synthesized once, here, within the hook's time rather than the first test's.
  templateOf(platform.api);
});

afterAll(() => rmSync(path.dirname(missingWebDist), { recursive: true, force: true }));

describe('what an operator gets from a production deploy', () => {
  it('logs every API request as one JSON line with id, route, status and latency, and never a header or query string', () => {
    // Prepare
    const template = templateOf(platform.api);
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
    const settings = stage?.Properties.AccessLogSettings as { Format: string; DestinationArn: unknown };

    // Assess
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toEqual(API_ACCESS_LOG_FORMAT);
    expect(Object.keys(format)).toEqual(expect.arrayContaining(['requestId', 'route', 'status', 'latencyMs']));
    expect(settings.Format).not.toMatch(/header|cookie|querystring|authorization/i);
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('gives every function its own role with no AWS managed policy, writing only to its own log group', () => {
    // Prepare
    const templates = [...platform.routeStacks, platform.jobs, platform.queues].map((stack) => templateOf(stack));

    // Assess
    for (const template of templates) {
      const roles = Object.values(template.findResources('AWS::IAM::Role'));
      expect(roles.length).toBeGreaterThan(0);
      // The one managed policy a role may have is our own realtime push policy, never one of AWS's.
      for (const role of roles) {
        for (const arn of (role.Properties.ManagedPolicyArns as unknown[] | undefined) ?? []) {
          expect(JSON.stringify(arn)).toMatch(/Fn::ImportValue.*Realtime.*PushPolicy/);
        }
      }
      const functions = Object.values(template.findResources('AWS::Lambda::Function'));
      expect(functions.every((fn) => (fn.Properties.LoggingConfig as { LogGroup?: unknown } | undefined)?.LogGroup)).toBe(true);
      template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    }
  });

  it('grants the table and its named indexes, never every index', () => {
    // Prepare
    const template = templateOf(platform.routeStacks[0] as never);
    const resources = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as { Resource: unknown }[]).flatMap((statement) => [statement.Resource].flat()),
    );

    // Assess
    const text = JSON.stringify(resources);
    expect(text).not.toContain('/index/*');
    for (const { indexName } of TABLE_KEYS.globalIndexes) expect(text).toContain(`/index/${indexName}`);
  });

  it('keeps bucket and CloudFront access logs in one log bucket for 90 days', () => {
    // Prepare
    const data = templateOf(platform.data);
    const web = templateOf(platform.web);

    // Assess
    data.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 90, Status: 'Enabled' })] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
    });
    data.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 's3/file-bucket/' },
    });
    web.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 's3/site-bucket/' },
    });
    web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ Logging: Match.objectLike({ Prefix: 'cloudfront/' }) }),
    });
  });

  it("serves the site on the web app's own domain with its certificate and TLS 1.2 at least", () => {
    // Assess
    templateOf(platform.web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['toppubs.example'],
        ViewerCertificate: {
          AcmCertificateArn: CERTIFICATE_ARN,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
      }),
    });
  });
});

/** Alarms of a template by metric name, with the topic they notify. */
function alarmsOf(
  template: Template,
): { metric: unknown; threshold: unknown; actions: string; properties: Record<string, unknown> }[] {
  return Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => ({
    metric:
      alarm.Properties.MetricName ??
      (alarm.Properties.Metrics as { Id: string }[] | undefined)?.map((metric) => metric.Id).join(','),
    threshold: alarm.Properties.Threshold,
    actions: JSON.stringify(alarm.Properties.AlarmActions),
    properties: alarm.Properties as Record<string, unknown>,
  }));
}

describe('alarms, the dashboard and the budget of a production deploy', () => {
  it("prices the alarms a production deploy makes in the operations guide's cost table", () => {
    // Prepare: every stack of the deploy, and the guide's row for the alarms.
    const stacks =
      Stack.of(platform.api).node.scope?.node.children.filter((child): child is Stack => child instanceof Stack) ?? [];
    const alarms = stacks.map((stack) => templateOf(stack).findResources('AWS::CloudWatch::Alarm'));
    const functions = stacks.map((stack) => templateOf(stack).findResources('AWS::Lambda::Function'));
    const guide = readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');

    // Act
    const total = alarms.reduce((sum, found) => sum + Object.keys(found).length, 0);
    const perFunction = Object.values(alarms.reduce((all, found) => ({ ...all, ...found }), {})).filter((alarm) =>
      JSON.stringify(alarm.Properties.Dimensions ?? []).includes('FunctionName'),
    ).length;
    const functionCount = functions.reduce((sum, found) => sum + Object.keys(found).length, 0);
    const row =
      /\| CloudWatch alarms +\| 2 per function × ([\d,]+) functions \+ 1 per job × (\d+) jobs \+ (\d+) \(.*?\) = ([\d,]+) × \$0\.10 \| \$([\d.,]+) +\|/.exec(
        guide,
      );

    // Assess
    expect(row, 'the alarms row of "Cost drivers" in docs/operations.md').not.toBeNull();
    const [, functionsInGuide, jobsInGuide, othersInGuide, totalInGuide, dollars] = row as RegExpExecArray;
    // Errors and throttles of each function, and each job's "it did not run".
    expect(perFunction).toBe(2 * functionCount + JOB_SCHEDULES.length);
    expect(Number(functionsInGuide?.replace(',', ''))).toBe(functionCount);
    expect(Number(jobsInGuide)).toBe(JOB_SCHEDULES.length);
    expect(Number(othersInGuide)).toBe(total - perFunction);
    expect(Number(totalInGuide?.replace(',', ''))).toBe(total);
    expect(dollars).toBe((total * 0.1).toFixed(2));
    // The fixed table's total, which the generated traffic table adds (FIXED_PER_MONTH), follows it.
    const fixedTable = guide.slice(guide.indexOf('**Fixed, whatever the traffic**'), guide.indexOf('- **Ranking job writes.**'));
    const fixedCosts = [...fixedTable.matchAll(/\| \$([\d.]+) +\|$/gm)].map((match) => Number(match[1]));
    expect(fixedCosts).toHaveLength(4);
    expect(Math.round(fixedCosts.reduce((sum, cost) => sum + cost, 0))).toBe(FIXED_PER_MONTH);
    expect(guide).toContain(`Total fixed:** about **$${FIXED_PER_MONTH} plus`);
  });

  it('mails the on-call address from one alarm topic that only accepts TLS', () => {
    // Prepare
    const template = templateOf(platform.monitoring);

    // Assess
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@toppubs.example' });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })],
      },
    });
  });

  it('alarms on the API 5xx rate and p99 latency, table throttles and system errors, the mail reputation and cap, and reconciliation', () => {
    // Prepare
    const alarms = alarmsOf(templateOf(platform.monitoring));

    // Assess
    const describedAs = (start: string) => alarms.filter((alarm) => String(alarm.properties.AlarmDescription).startsWith(start));
    expect(describedAs('More than 1% of API requests answered 5xx').map((alarm) => alarm.threshold)).toEqual([
      ALARM_THRESHOLDS.api5xxRatePercent,
    ]);
    expect(alarms.map((alarm) => [alarm.metric, alarm.threshold])).toEqual(
      expect.arrayContaining([
        ['Latency', ALARM_THRESHOLDS.apiP99LatencyMs],
        ['ThrottledRequests', 0],
        ['SystemErrors', 0],
      ]),
    );
    expect(alarms.map((alarm) => [alarm.metric, alarm.threshold])).toEqual(
      expect.arrayContaining([
        ['Reputation.BounceRate', SES_REPUTATION_ALARMS.bounceRate],
        ['Reputation.ComplaintRate', SES_REPUTATION_ALARMS.complaintRate],
      ]),
    );
    expect(describedAs('The daily reconciliation found a difference').map((alarm) => [alarm.metric, alarm.threshold])).toEqual([
      ['expr_1,differences,failures', 0],
    ]);
    expect(describedAs('A kind of mail has used').map((alarm) => [alarm.metric, alarm.threshold])).toEqual([
      [MAIL_HOURLY_CAP_WARNING.metricName, 0],
    ]);
    expect(alarms).toHaveLength(8);
    expect(alarms.every((alarm) => alarm.actions.includes('Alarms'))).toBe(true);
  });

  it('alarms when a kind of mail has used 80% of its service-wide hourly cap, before the cap refuses anyone', () => {
    // Prepare
    const template = templateOf(platform.monitoring);

    // Assess
    expect(MAIL_HOURLY_CAP_WARNING).toEqual({
      percent: 80,
      namespace: 'TopPubs',
      service: 'mail',
      metricName: 'MailHourlyCapNearlyUsed',
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'TopPubs',
      MetricName: 'MailHourlyCapNearlyUsed',
      Dimensions: [{ Name: 'service', Value: 'mail' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmDescription: Match.stringLikeRegexp(
        '^A kind of mail has used 80% of its service-wide hourly cap.*docs/operations.md#mail-hourly-cap-nearly-used',
      ),
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('^Alarms') })],
    });
  });

  it("alarms on every function's errors and throttles, each to the alarm topic", () => {
    // Prepare
    const alarms = [...platform.routeStacks, platform.jobs, platform.queues].flatMap((stack) => alarmsOf(templateOf(stack)));

    // Assess
    const functionCount = routeEntries.length + JOB_SCHEDULES.length + WORK_QUEUES.length;
    expect(alarms.filter((alarm) => alarm.metric === 'Errors' && alarm.threshold === FUNCTION_ERRORS_THRESHOLD)).toHaveLength(
      functionCount,
    );
    expect(alarms.filter((alarm) => alarm.metric === 'Throttles' && alarm.threshold === 0)).toHaveLength(functionCount);
    expect(alarms.every((alarm) => alarm.actions.includes('AlarmTopicArn') || alarm.actions.includes('Alarms'))).toBe(true);
  });

  it('retries each schedule into a dead-letter queue, and alarms on a run not delivered or a job that did not run', () => {
    // Prepare
    const template = templateOf(platform.jobs);
    const alarms = alarmsOf(template);

    // Assess
    template.resourcePropertiesCountIs(
      'AWS::Events::Rule',
      {
        Targets: [
          Match.objectLike({
            RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
            DeadLetterConfig: Match.anyValue(),
          }),
        ],
      },
      JOB_SCHEDULES.length,
    );
    expect(alarms.filter((alarm) => alarm.metric === 'ApproximateNumberOfMessagesVisible')).toHaveLength(1);
    const didNotRun = alarms.filter((alarm) => alarm.metric === 'Invocations');
    expect(
      didNotRun.map((alarm) => [alarm.properties.Period, alarm.properties.TreatMissingData, alarm.properties.ComparisonOperator]),
    ).toEqual(JOB_SCHEDULES.map((job) => [Math.min(job.everyMinutes * 2, 1440) * 60, 'breaching', 'LessThanThreshold']));
  });

  it('retries each work queue message into its dead-letter queue, and alarms on one landing there or the queue falling behind', () => {
    // Prepare
    const template = templateOf(platform.queues);
    const alarms = alarmsOf(template);

    // Assess
    template.resourcePropertiesCountIs('AWS::SQS::Queue', { RedrivePolicy: Match.anyValue() }, WORK_QUEUES.length);
    expect(alarms.filter((alarm) => alarm.metric === 'ApproximateNumberOfMessagesVisible')).toHaveLength(WORK_QUEUES.length);
    expect(alarms.filter((alarm) => alarm.metric === 'ApproximateAgeOfOldestMessage')).toHaveLength(WORK_QUEUES.length);
    expect(alarms.every((alarm) => alarm.actions.includes('Alarms'))).toBe(true);
  });

  it("links every alarm's description to a section of docs/operations.md that exists", () => {
    // Prepare
    const operations = readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
    const sections = new Set(
      [...operations.matchAll(/^#{2,4} (.+)$/gm)].map(([, heading]) =>
        (heading as string)
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const stacks = [
      platform.api,
      platform.data,
      platform.email,
      platform.monitoring,
      platform.realtime,
      platform.jobs,
      platform.queues,
      ...platform.routeStacks,
    ];
    const descriptions = stacks.flatMap((stack) =>
      alarmsOf(templateOf(stack)).map((alarm) => String(alarm.properties.AlarmDescription)),
    );

    // Assess
    expect(descriptions.length).toBeGreaterThan(0);
    for (const description of descriptions) {
      const anchor = /docs\/operations\.md#([a-z0-9-]+)/.exec(description)?.[1];
      expect(anchor, description).toBeDefined();
      expect(sections.has(anchor as string), description).toBe(true);
    }
  });

  it('builds one dashboard with the API signals and a row per app, and a monthly budget mailed at 80% forecast and 100%', () => {
    // Prepare
    const template = templateOf(platform.monitoring);
    const body = JSON.stringify(Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0]?.Properties.DashboardBody);

    // Assess
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    for (const app of new Set(routeEntries.map(([, route]) => route.handler.split('/')[0]))) {
      expect(body).toContain(`${app}: errors and throttles`);
      expect(body).toContain(`${app}: business metrics`);
    }
    expect(body).toContain('API 5xx rate');
    template.hasResourceProperties('AWS::Budgets::Budget', {
      Budget: Match.objectLike({ BudgetLimit: { Amount: 50, Unit: 'USD' }, TimeUnit: 'MONTHLY' }),
      NotificationsWithSubscribers: [
        Match.objectLike({ Notification: Match.objectLike({ NotificationType: 'FORECASTED', Threshold: 80 }) }),
        Match.objectLike({ Notification: Match.objectLike({ NotificationType: 'ACTUAL', Threshold: 100 }) }),
      ],
    });
  });

  it('sends every mail through a configuration set that publishes bounces and complaints and suppresses those addresses', () => {
    // Prepare
    const email = templateOf(platform.email);
    const sendingFunctions = platform.routeStacks.flatMap((stack) =>
      Object.values(templateOf(stack).findResources('AWS::Lambda::Function')).filter(
        (fn) => 'MAIL_FROM' in ((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables ?? {}),
      ),
    );

    // Assess
    email.hasResourceProperties('AWS::SES::ConfigurationSet', {
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    email.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({ MatchingEventTypes: Match.arrayWith(['bounce', 'complaint']) }),
    });
    email.hasResourceProperties('AWS::SES::EmailIdentity', {
      ConfigurationSetAttributes: { ConfigurationSetName: Match.anyValue() },
    });
    expect(sendingFunctions.length).toBeGreaterThan(0);
    // SES checks a send naming a configuration set against the set too: without this grant every mail is refused.
    for (const stack of platform.routeStacks) {
      const template = templateOf(stack);
      const sendingRoleIds = Object.values(template.findResources('AWS::Lambda::Function'))
        .filter((fn) => 'MAIL_FROM' in (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables)
        .map((fn) => (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
      for (const roleId of sendingRoleIds) {
        const documents = Object.values(
          template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
        ).map((policy) => JSON.stringify(policy.Properties.PolicyDocument));
        expect(documents.join(), roleId).toContain(':configuration-set/');
      }
    }
    for (const fn of sendingFunctions) {
      expect(
        (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.MAIL_CONFIGURATION_SET,
      ).toBeDefined();
    }
  });
});
