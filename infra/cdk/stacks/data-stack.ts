import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { TABLE_KEYS } from '../../../shared/table';
import { AnalyticsStorage } from '../constructs/analytics';
import { expirationDaysOf, RETENTION_CLASSES, RETENTION_TAG } from '../../../shared/transfers/retention';

export interface DataStackProps extends StackProps {
  /** Origins whose browsers PUT files straight to the bucket with presigned URLs. */
  allowedOrigins: readonly string[];
}

const LOG_RETENTION_DAYS = 90;

/** The export the route stacks' file grants import: named by us, so their grants read the same in every synth. */
export const fileBucketArnExportName = (dataStackId: string) => `${dataStackId}-FileBucketArn`;

/** State that must survive everything else being torn down: retained on stack deletion. */
export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly fileBucket: s3.Bucket;
  /** Access logs of the buckets and of CloudFront, kept 90 days. */
  readonly logBucket: s3.Bucket;
  /**
   * The Braintree keys (JSON: merchantId, publicKey, privateKey, environment). Made here with a
   * random placeholder for the private key, so no key is ever in a template or a repo: an
   * operator puts the real ones in once (docs/operations.md), and the payment functions read
   * it at run time.
   */
  readonly braintreeSecret: secretsmanager.Secret;
  /**
   * What CloudFront sends the API with every request, and the functions compare: the proof that
   * a request came through the edge, whose viewer-address header they may then believe.
   */
  readonly edgeOriginToken: secretsmanager.Secret;
  /**
   * The key that seals merchants' own Braintree keys (the storefront): envelope encryption, a
   * data key per sealing from GenerateDataKey, bound to the merchant account by the encryption
   * context. Rotated yearly by KMS (older key material stays to decrypt what it sealed), and
   * retained with the table, whose items it is needed to read.
   */
  readonly merchantKeysKey: kms.Key;
  /** Product analytics: the events bucket, its Firehose stream, the Glue table and the Athena workgroup. */
  readonly analytics: AnalyticsStorage;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    const stringKey = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(TABLE_KEYS.partitionKey),
      sortKey: stringKey(TABLE_KEYS.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE_KEYS.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE_KEYS.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.logBucket = new s3.Bucket(this, 'LogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      // CloudFront's standard logs are delivered with an ACL: the bucket must accept ACLs.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(LOG_RETENTION_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Any bucket of this account may deliver its access logs here (the web stack's site bucket
    // included, which this stack cannot name without a reference cycle).
    this.logBucket.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [this.logBucket.arnForObjects('s3/*')],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    Validations.of(this.logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself: logging its own access into itself would log every log delivery, forever.',
    });

    this.fileBucket = new s3.Bucket(this, 'FileBucket', {
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/file-bucket/',
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          // POST: small files' presigned forms; PUT: multipart parts; GET and HEAD: the zip the
          // browser streams from presigned downloads.
          allowedMethods: [s3.HttpMethods.POST, s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedOrigins: [...props.allowedOrigins],
          allowedHeaders: ['*'],
          // The browser needs the ETag to confirm what it uploaded, and Content-Range to resume
          // a download (or read a text preview) from the byte a Range GET answered.
          exposedHeaders: ['ETag', 'Content-Range', 'Accept-Ranges'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        // Abandoned uploads are billed until removed.
        { id: 'abort-abandoned-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A transfer's files go when it ends: each object carries its transfer's retention class.
        ...RETENTION_CLASSES.map((days) => ({
          id: `transfer-files-${days}-days`,
          tagFilters: { [RETENTION_TAG]: String(days) },
          expiration: Duration.days(expirationDaysOf(days)),
        })),
      ],
    });

    this.braintreeSecret = new secretsmanager.Secret(this, 'BraintreeKeys', {
      description: 'Braintree API keys of the product (merchantId, publicKey, privateKey, environment: sandbox | production)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ merchantId: 'set-me', publicKey: 'set-me', environment: 'sandbox' }),
        generateStringKey: 'privateKey',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.edgeOriginToken = new secretsmanager.Secret(this, 'EdgeOriginToken', {
      description: "Sent by CloudFront to the API with every request: the proof that its viewer-address header is the edge's",
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    Validations.of(this.edgeOriginToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront and the functions read it at deploy time (origin header, environment): a new value is taken by deploying again, not by a rotation Lambda (docs/operations.md).',
    });
    Validations.of(this.braintreeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "Braintree's API keys are made and revoked in Braintree's control panel, not by a rotation Lambda: an operator replaces them there and here (docs/operations.md).",
    });

    this.merchantKeysKey = new kms.Key(this, 'MerchantKeysKey', {
      description: "Seals merchants' own Braintree keys in the table (envelope encryption, one data key per sealing)",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.analytics = new AnalyticsStorage(this, 'Analytics', { logBucket: this.logBucket, prefix: id.replace(/-Data$/, '') });

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'MerchantKeysKeyArn', { value: this.merchantKeysKey.keyArn });
    new CfnOutput(this, 'BraintreeSecretName', { value: this.braintreeSecret.secretName });
    new CfnOutput(this, 'FileBucketName', { value: this.fileBucket.bucketName });
    new CfnOutput(this, 'FileBucketArn', { value: this.fileBucket.bucketArn, exportName: fileBucketArnExportName(id) });
  }
}
