/**
 * The parts of the AWS SDK the file bucket uses (file-bucket.ts), which loads this module on
 * its first call to S3 rather than when the function is imported: S3's client, commands and
 * presigners are some 150 KB that a cold start would otherwise compile, for routes that only
 * sometimes reach the bucket. In a Lambda bundle this module is a chunk of its own.
 */
export {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  NoSuchKey,
  NoSuchUpload,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
export { createPresignedPost } from '@aws-sdk/s3-presigned-post';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
