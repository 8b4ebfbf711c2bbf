import { Annotations, CfnOutput, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type { StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import { EDGE_ORIGIN_TOKEN_HEADER } from '../../../shared/constants';
import {
  API_VIEWER_ADDRESS_FUNCTION_CODE,
  contentSecurityPolicy,
  type Framing,
  HSTS_MAX_AGE_SECONDS,
  NO_FRAME_PATH_PATTERNS,
  PAGE_PATH_PATTERNS,
  PAGE_REQUEST_FUNCTION_CODE,
  REFERRER_POLICY,
  VIEWER_REQUEST_FUNCTION_CODE,
} from '../../web-edge-policy';

export interface WebStackProps extends StackProps {
  httpApi: apigwv2.IHttpApi;
  /**
   * Sent to the API with every request (a dynamic reference to the data stack's secret): with it
   * the functions believe the viewer address the `/api/*` function adds.
   */
  edgeOriginToken: string;
  /** The built web app (web/dist); deployed only when it exists at synth time. */
  webDistDir: string;
  /** Where the bucket and CloudFront access logs go. */
  logBucket: s3.IBucket;
  /**
   * The site's own domain (the web app's origin) and its ACM certificate in us-east-1. Without
   * them CloudFront serves *.cloudfront.net, whose certificate still accepts TLS 1.0.
   */
  domain?: { name: string; certificateArn: string } | undefined;
  /** The optional web ACL (infra/cdk/stacks/waf-stack.ts), made in us-east-1 by its own app. */
  webAclArn?: string | undefined;
  /** The WebSocket API's origin (wss://…), which pages may connect to for live updates. */
  realtimeOrigin?: string | undefined;
  /** The file bucket's origin (https://…), which pages upload to and download packages from. */
  fileBucketOrigin?: string | undefined;
}

/** The site's viewer-request function (SPA fallback, canonical no-frame paths), shared with the local server. */
export const SPA_REWRITE_FUNCTION_CODE = VIEWER_REQUEST_FUNCTION_CODE;

/** Private bucket behind CloudFront; /api/* goes to the HTTP API so the browser stays same-origin. */
export class WebStack extends Stack {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
    });
    // Set on the resource: the L2 option would write this stack's bucket into the log bucket's
    // policy in the data stack, a reference cycle. That policy admits the whole account instead.
    (this.bucket.node.defaultChild as s3.CfnBucket).loggingConfiguration = {
      destinationBucketName: props.logBucket.bucketName,
      logFilePrefix: 's3/site-bucket/',
    };

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_FUNCTION_CODE),
      comment: 'Serve index.html for client-side routes; canonical spelling for no-frame pages',
    });

    // HSTS everywhere the site answers (HTTPS only); the rest mirrors the local static server.
    const strictTransportSecurity = {
      accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
      includeSubdomains: true,
      override: true,
    };
    const siteHeaders = (id: string, framing: Framing, rendered = false) =>
      new cloudfront.ResponseHeadersPolicy(this, id, {
        comment: `${rendered ? 'Rendered page' : 'Web app'} security headers (framing ${framing})`,
        // A rendered page comes from the API, whose answers refuse every frame: a page may be framed.
        ...(rendered ? { removeHeaders: ['x-frame-options'] } : {}),
        securityHeadersBehavior: {
          contentSecurityPolicy: {
            contentSecurityPolicy: contentSecurityPolicy(framing, {
              connectSources: props.realtimeOrigin ? [props.realtimeOrigin] : [],
              fileSources: props.fileBucketOrigin ? [props.fileBucketOrigin] : [],
            }),
            override: true,
          },
          contentTypeOptions: { override: true },
          // The shared constant is one of CloudFront's values; the CDK assertion tests pin it.
          referrerPolicy: { referrerPolicy: REFERRER_POLICY as cloudfront.HeadersReferrerPolicy, override: true },
          strictTransportSecurity,
          ...(framing === 'denied' ? { frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true } } : {}),
        },
      });
    const frameableHeaders = siteHeaders('SiteHeaders', 'allowed');
    const noFrameHeaders = siteHeaders('NoFrameSiteHeaders', 'denied');
    const pageHeaders = siteHeaders('PageHeaders', 'allowed', true);
    // The API's JSON needs no page policy, only HSTS and no content sniffing.
    const apiHeaders = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'API security headers',
      securityHeadersBehavior: { contentTypeOptions: { override: true }, strictTransportSecurity },
    });

    // apiEndpoint is https://{id}.execute-api.{region}.amazonaws.com; CloudFront wants the host.
    const apiHost = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    // Caches only what the handler marks cacheable (cacheSeconds -> Cache-Control); nothing else.
    const apiCachePolicy = new cloudfront.CachePolicy(this, 'ApiCachePolicy', {
      comment: 'Respect the API Cache-Control header; never cache by default',
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.days(1),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const siteOrigin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    const apiOrigin = new origins.HttpOrigin(apiHost, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [EDGE_ORIGIN_TOKEN_HEADER]: props.edgeOriginToken },
    });
    const apiViewerAddress = new cloudfront.Function(this, 'ApiViewerAddress', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(API_VIEWER_ADDRESS_FUNCTION_CODE),
      comment: "Tell the API the viewer's own address, which API Gateway cannot see behind the edge",
    });

    // The public pages go to the page renderer on the API: the function points each at the
    // renderer's route, and the answer is cached as the route says (a minute). No cookie or
    // header reaches the renderer: a page is the same for everyone, so one render serves all.
    const pageRequest = new cloudfront.Function(this, 'PageRequest', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(PAGE_REQUEST_FUNCTION_CODE),
      comment: 'Send public pages, robots.txt and the sitemaps to the page renderer',
    });
    const pageOriginRequests = new cloudfront.OriginRequestPolicy(this, 'PageOriginRequests', {
      comment: 'Public pages: the query string only',
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.none(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });
    const pageBehavior: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: apiCachePolicy,
      originRequestPolicy: pageOriginRequests,
      responseHeadersPolicy: pageHeaders,
      functionAssociations: [{ function: pageRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    };
    const siteBehavior = (responseHeadersPolicy: cloudfront.IResponseHeadersPolicy): cloudfront.BehaviorOptions => ({
      origin: siteOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy,
      functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    });

    // No default root object: '/' is a rendered page (its own behaviour), and the bucket's
    // function already answers any other client route with index.html.
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: siteBehavior(frameableHeaders),
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCachePolicy,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: apiHeaders,
          functionAssociations: [{ function: apiViewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
        // The account and login pages refuse every frame; the function sends other spellings here.
        ...Object.fromEntries(NO_FRAME_PATH_PATTERNS.map((pattern) => [pattern, siteBehavior(noFrameHeaders)])),
        ...Object.fromEntries(PAGE_PATH_PATTERNS.map((pattern) => [pattern, pageBehavior])),
      },
    });

    if (existsSync(props.webDistDir)) {
      new s3deploy.BucketDeployment(this, 'SiteDeployment', {
        sources: [s3deploy.Source.asset(props.webDistDir)],
        destinationBucket: this.bucket,
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
      acknowledgeDeploymentHandler(this, this.bucket);
    } else {
      Annotations.of(this).addWarningV2(
        'toppubs:web-dist-missing',
        `${props.webDistDir} does not exist: the site bucket is created empty. Build the web app first.`,
      );
    }

    new CfnOutput(this, 'SiteUrl', { value: `https://${this.distribution.distributionDomainName}` });
  }
}

/**
 * BucketDeployment runs a function that aws-cdk-lib writes and maintains (one per stack): its
 * runtime, role and policy are CDK's, not ours, and it runs only while a deploy copies the web
 * build. Its findings are acknowledged on that function alone.
 */
function acknowledgeDeploymentHandler(stack: Stack, siteBucket: s3.Bucket): void {
  const handler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!handler) throw new Error('BucketDeployment no longer creates its handler under Custom::CDKBucketDeployment*');
  const because = (what: string) => `CDK's own BucketDeployment handler (aws-cdk-lib): ${what}`;
  const acknowledgements: [string, string][] = [
    ['AwsSolutions-L1', because('its runtime is chosen by aws-cdk-lib and moves with it.')],
    [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      because('CDK attaches the basic execution role to write its deploy-time logs.'),
    ],
    ...[
      'Action::s3:GetBucket*',
      'Action::s3:GetObject*',
      'Action::s3:List*',
      'Action::s3:Abort*',
      'Action::s3:DeleteObject*',
      'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
      `Resource::<${stack.getLogicalId(siteBucket.node.defaultChild as s3.CfnBucket)}.Arn>/*`,
      'Resource::*',
    ].map((finding): [string, string] => [
      `AwsSolutions-IAM5[${finding}]`,
      because(
        'it reads the web build from the CDK asset bucket, replaces the site bucket contents (stale files are deleted) ' +
          'and invalidates the distribution, whose ARN CDK does not scope.',
      ),
    ]),
  ];
  for (const [id, reason] of acknowledgements) Validations.of(handler).acknowledge({ id, reason });
}
