import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../functions/lib/config';
import { braintreeCredentials } from '../../functions/lib/payments/braintree-credentials';
import { PaymentGatewayUnavailable } from '../../functions/lib/payments/gateway';

const secretsMock = mockClient(SecretsManagerClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => secretsMock.restore());
const KEYS = {
  merchantId: 'merchant-value-123',
  publicKey: 'public-value-456',
  privateKey: 'private-value-789',
  environment: 'production',
};

// The credentials are kept per secret for the process's life: each test reads its own secret.
let secretNumber = 0;
const nextArn = () => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:braintree-test-${(secretNumber += 1)}`;

afterEach(() => {
  secretsMock.reset();
});

describe('Braintree credentials from Secrets Manager', () => {
  it('reads the secret named by its ARN once, and answers its keys', async () => {
    // Prepare
    const arn = nextArn();
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(KEYS) });

    // Act
    const first = await braintreeCredentials(arn);
    const second = await braintreeCredentials(arn);

    // Assess
    expect(first).toEqual(KEYS);
    expect(second).toBe(first);
    const calls = secretsMock.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ SecretId: arn });
  });

  it('reads again on the next call after a failed read (an outage is a 503)', async () => {
    // Prepare
    const arn = nextArn();
    secretsMock
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: JSON.stringify(KEYS) });

    // Act
    const failed = await braintreeCredentials(arn).catch((error: unknown) => error);
    const retried = await braintreeCredentials(arn);

    // Assess
    expect(failed).toBeInstanceOf(PaymentGatewayUnavailable);
    expect(retried).toEqual(KEYS);
    expect(secretsMock.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('names the missing and invalid fields, never their values', async () => {
    // Prepare
    const arn = nextArn();
    secretsMock.on(GetSecretValueCommand).resolves({
      SecretString: JSON.stringify({ merchantId: KEYS.merchantId, publicKey: '  ', environment: 'staging-value-000' }),
    });

    // Act
    const error = await braintreeCredentials(arn).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toBe(
      `The Braintree secret ${arn} is missing publicKey, privateKey and has an invalid environment (environment must be 'sandbox' or 'production')`,
    );
    expect(message).not.toContain(KEYS.merchantId);
    expect(message).not.toContain('staging-value-000');
  });

  it('refuses a secret that is not JSON without quoting it', async () => {
    // Prepare
    const arn = nextArn();
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'merchantId=private-value-789' });

    // Act
    const error = await braintreeCredentials(arn).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`The Braintree secret ${arn} is not JSON`);
  });

  it('refuses a secret that is not an object, or holds no text', async () => {
    // Prepare
    const listArn = nextArn();
    const binaryArn = nextArn();
    secretsMock.on(GetSecretValueCommand, { SecretId: listArn }).resolves({ SecretString: '["a"]' });
    secretsMock.on(GetSecretValueCommand, { SecretId: binaryArn }).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });

    // Act
    const list = await braintreeCredentials(listArn).catch((caught: unknown) => caught);
    const binary = await braintreeCredentials(binaryArn).catch((caught: unknown) => caught);

    // Assess
    expect((list as Error).message).toBe(
      `The Braintree secret ${listArn} must be a JSON object with merchantId, publicKey, privateKey and environment`,
    );
    expect(binary).toBeInstanceOf(ConfigError);
    expect((binary as Error).message).toContain('holds no text');
  });

  it('is a ConfigError (the deployment is wrong) when the secret cannot be read', async () => {
    // Prepare
    const arn = nextArn();
    secretsMock.on(GetSecretValueCommand).rejects(Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' }));

    // Act
    const error = await braintreeCredentials(arn).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`The Braintree secret ${arn} cannot be read: AccessDeniedException`);
  });
});
