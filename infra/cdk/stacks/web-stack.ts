import { Annotations, CfnOutput, Duration, Fn, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';

export interface WebStackProps extends StackProps {
  httpApi: apigwv2.IHttpApi;
  /** The built web app (web/dist); deployed only when it exists at synth time. */
  webDistDir: string;
}

/**
 * SPA fallback as a viewer-request function on the bucket behaviour only. Distribution-level
 * error responses (403/404 -> /index.html) would also rewrite the API's own 403 and 404 answers
 * into a 200 HTML page, so client routes are rewritten before they reach S3 instead: anything
 * that is not a built asset (under /assets/) or a root-level static file is the app shell.
 */
export const SPA_REWRITE_FUNCTION_CODE = `
var STATIC_ROOT_FILE = /^\\/[^\\/]+\\.(?:ico|png|svg|jpg|webp|txt|xml|json|webmanifest|js|css|map|woff2?)$/;
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.indexOf('/assets/') !== 0 && !STATIC_ROOT_FILE.test(uri)) {
    request.uri = '/index.html';
  }
  return request;
}
`;

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

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_FUNCTION_CODE),
      comment: 'Serve index.html for client-side routes',
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

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new origins.HttpOrigin(apiHost, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: apiCachePolicy,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });

    if (existsSync(props.webDistDir)) {
      new s3deploy.BucketDeployment(this, 'SiteDeployment', {
        sources: [s3deploy.Source.asset(props.webDistDir)],
        destinationBucket: this.bucket,
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
    } else {
      Annotations.of(this).addWarningV2(
        'toppubs:web-dist-missing',
        `${props.webDistDir} does not exist: the site bucket is created empty. Build the web app first.`,
      );
    }

    new CfnOutput(this, 'SiteUrl', { value: `https://${this.distribution.distributionDomainName}` });
  }
}
