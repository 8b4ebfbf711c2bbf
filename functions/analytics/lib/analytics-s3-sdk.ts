/**
 * The parts of the AWS SDK that read and write the analytics events bucket (analytics-bucket.ts),
 * loaded by the first call to S3 rather than when the function is imported: S3's client is the
 * heaviest part of a cold start that has it. In a Lambda bundle, a chunk of its own.
 */
export { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
