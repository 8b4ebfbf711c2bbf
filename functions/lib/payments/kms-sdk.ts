/**
 * The parts of the AWS SDK that seal and open merchants' keys (merchant-keys.ts), loaded by the
 * first call to KMS rather than when the function is imported; in a Lambda bundle, a chunk of its own.
 */
export { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
