/**
 * The parts of the AWS SDK that read the Braintree secret (braintree-credentials.ts), loaded by
 * the first read rather than when the function is imported; in a Lambda bundle, a chunk of its own.
 */
export { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
