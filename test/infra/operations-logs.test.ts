import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/build/bundle-functions';
import { createPlatform, type Platform } from '../../infra/cdk/platform';
import { API_ACCESS_LOG_FORMAT } from '../../infra/cdk/stacks/api-stack';
import { TABLE_KEYS } from '../../shared/table';

const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/site';

let platform: Platform;
let missingWebDist: string;

beforeAll(() => {
  // Prepare: production settings, no web build (no deployment asset to bundle)
  missingWebDist = path.join(mkdtempSync(path.join(tmpdir(), 'toppubs-web-')), 'missing');
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

  // Act
  platform = createPlatform(new App({ context: cdkJson.context }), {
    stage: 'prod',
    allowedOrigins: ['https://toppubs.example'],
    mailDomain: 'toppubs.example',
    siteCertificateArn: CERTIFICATE_ARN,
    codeFor: () => lambda.Code.fromInline('export const handler = async () => ({})'),
    webDistDir: missingWebDist,
  });
});

afterAll(() => rmSync(path.dirname(missingWebDist), { recursive: true, force: true }));

describe('what an operator gets from a production deploy', () => {
  it('logs every API request as one JSON line with id, route, status and latency, and never a header or query string', () => {
    // Prepare
    const template = Template.fromStack(platform.api);
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
    const templates = [...platform.routeStacks, platform.jobs].map((stack) => Template.fromStack(stack));

    // Assess
    for (const template of templates) {
      const roles = Object.values(template.findResources('AWS::IAM::Role'));
      expect(roles.length).toBeGreaterThan(0);
      for (const role of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const functions = Object.values(template.findResources('AWS::Lambda::Function'));
      expect(functions.every((fn) => (fn.Properties.LoggingConfig as { LogGroup?: unknown } | undefined)?.LogGroup)).toBe(true);
      template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    }
  });

  it('grants the table and its named indexes, never every index', () => {
    // Prepare
    const template = Template.fromStack(platform.routeStacks[0] as never);
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
    const data = Template.fromStack(platform.data);
    const web = Template.fromStack(platform.web);

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
    Template.fromStack(platform.web).hasResourceProperties('AWS::CloudFront::Distribution', {
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
