import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../functions/lib/config';
import { runAsFunction } from '../../functions/lib/function-environment';
import {
  type MerchantGatewayKeys,
  MerchantKeysAccessDenied,
  MerchantKeysUnavailable,
  MerchantKeysUnreadable,
  openMerchantKeys,
  type SealedMerchantKeys,
  sealMerchantKeys,
} from '../../functions/lib/payments/merchant-keys';
import { ensureMerchantKeysKey } from '../../infra/local/runtime';
import { capabilitiesOf, type MerchantKeysAccess } from '../../shared/capabilities';

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const KEYS: MerchantGatewayKeys = {
  environment: 'sandbox',
  merchantId: 'merchant-value-123',
  publicKey: 'public-value-456',
  privateKey: 'private-value-789',
};
const BASE_ENV = { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com' };

/** Runs `work` as a function with this merchantKeys capability and environment, as the local runtime does. */
function asFunction<T>(access: MerchantKeysAccess, env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return runAsFunction(
    {
      name: `keys-${access}`,
      capabilities: capabilitiesOf({ merchantKeys: access }, { table: 'read-write' }),
      env: { ...BASE_ENV, ...env },
    },
    work,
  );
}

const caught = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/** No message of an error (or of its causes) may hold key material. */
function expectNoKeyMaterial(error: unknown) {
  for (let current = error; current instanceof Error; current = current.cause) {
    for (const secret of [KEYS.privateKey, KEYS.publicKey]) expect(current.message).not.toContain(secret);
  }
}

describe('merchant keys in AWS: KMS envelope encryption', () => {
  const kmsMock = mockClient(KMSClient);
  const env = { STAGE: 'prod', MERCHANT_KEYS: 'kms', MERCHANT_KEYS_KMS_KEY_ARN: KEY_ARN };
  const dataKey = randomBytes(32);
  const encryptedDataKey = Uint8Array.from(randomBytes(184));
  let generated: Uint8Array[] = [];

  beforeAll(() => kmsMock.reset());
  afterEach(() => {
    kmsMock.reset();
    generated = [];
  });
  afterAll(() => kmsMock.restore());

  function kmsAnswers() {
    kmsMock.on(GenerateDataKeyCommand).callsFake(() => {
      const plaintext = Uint8Array.from(dataKey);
      generated.push(plaintext);
      return { Plaintext: plaintext, CiphertextBlob: encryptedDataKey, KeyId: KEY_ARN };
    });
    kmsMock.on(DecryptCommand).callsFake(() => ({ Plaintext: Uint8Array.from(dataKey), KeyId: KEY_ARN }));
  }

  it('seals with a fresh AES-256 data key bound to the merchant account, and zeroes the plaintext data key', async () => {
    // Prepare
    kmsAnswers();

    // Act
    const sealed = await asFunction('seal', env, () => sealMerchantKeys('merchant-account-1', KEYS));

    // Assess
    const calls = kmsMock.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ARN,
      KeySpec: 'AES_256',
      EncryptionContext: { merchantAccountId: 'merchant-account-1' },
    });
    expect(sealed).toMatchObject({ algorithm: 'AES-256-GCM', keyId: KEY_ARN });
    expect(Buffer.from(sealed.encryptedDataKey, 'base64').equals(Buffer.from(encryptedDataKey))).toBe(true);
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(JSON.stringify(sealed)).not.toContain(KEYS.privateKey);
    expect(generated[0]?.every((byte) => byte === 0)).toBe(true);
  });

  it('opens with KMS Decrypt of the data key, pinned to the key, with the same encryption context', async () => {
    // Prepare
    kmsAnswers();
    const sealed = await asFunction('open', env, () => sealMerchantKeys('merchant-account-1', KEYS));

    // Act
    const opened = await asFunction('open', env, () => openMerchantKeys('merchant-account-1', sealed));

    // Assess
    expect(opened).toEqual(KEYS);
    const calls = kmsMock.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ARN,
      CiphertextBlob: Buffer.from(encryptedDataKey),
      EncryptionContext: { merchantAccountId: 'merchant-account-1' },
    });
  });

  it.each([
    ['AccessDeniedException', MerchantKeysAccessDenied],
    ['InvalidCiphertextException', MerchantKeysUnreadable],
    ['IncorrectKeyException', MerchantKeysUnreadable],
    ['ThrottlingException', MerchantKeysUnavailable],
    ['KMSInternalException', MerchantKeysUnavailable],
  ])('maps a Decrypt refused with %s to %o', async (name, expected) => {
    // Prepare
    kmsAnswers();
    const sealed = await asFunction('open', env, () => sealMerchantKeys('merchant-account-1', KEYS));
    kmsMock.on(DecryptCommand).rejects(Object.assign(new Error(`${name} happened`), { name }));

    // Act
    const error = await caught(asFunction('open', env, () => openMerchantKeys('merchant-account-1', sealed)));

    // Assess
    expect(error).toBeInstanceOf(expected);
    expect((error as Error).cause).toMatchObject({ name });
    expectNoKeyMaterial(error);
  });

  it('refuses a ciphertext changed after sealing, though KMS gave the right data key', async () => {
    // Prepare
    kmsAnswers();
    const sealed = await asFunction('open', env, () => sealMerchantKeys('merchant-account-1', KEYS));
    const bytes = Buffer.from(sealed.ciphertext, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;

    // Act
    const error = await caught(
      asFunction('open', env, () => openMerchantKeys('merchant-account-1', { ...sealed, ciphertext: bytes.toString('base64') })),
    );

    // Assess
    expect(error).toBeInstanceOf(MerchantKeysUnreadable);
    expectNoKeyMaterial(error);
  });
});

describe('merchant keys locally: a key file under the data folder', () => {
  let dataDir: string;
  let keyFile: string;
  const local = (mode: 'seal' | 'open', file = keyFile) => ({
    MERCHANT_KEYS: 'local',
    MERCHANT_KEYS_FILE: file,
    MERCHANT_KEYS_MODE: mode,
  });
  const seal = (merchantAccountId = 'merchant-account-1') =>
    asFunction('open', local('open'), () => sealMerchantKeys(merchantAccountId, KEYS));
  const open = (sealed: SealedMerchantKeys, merchantAccountId = 'merchant-account-1') =>
    asFunction('open', local('open'), () => openMerchantKeys(merchantAccountId, sealed));

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'merchant-keys-'));
    keyFile = ensureMerchantKeysKey(join(dataDir, 'merchant-keys.key'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the key file once: 32 random bytes, readable by its owner only', () => {
    // Act
    const first = readFileSync(keyFile);
    ensureMerchantKeysKey(keyFile);

    // Assess
    expect(first).toHaveLength(32);
    expect(readFileSync(keyFile).equals(first)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('refuses to start on a key file of the wrong size', () => {
    // Prepare
    const short = join(dataDir, 'short.key');
    writeFileSync(short, randomBytes(16));

    // Act
    const start = () => ensureMerchantKeysKey(short);

    // Assess
    expect(start).toThrow(/exactly 32 bytes/);
  });

  it('opens what it sealed, in the same shape as KMS envelopes, never twice the same', async () => {
    // Act
    const sealed = await seal();
    const again = await seal();
    const opened = await open(sealed);

    // Assess
    expect(opened).toEqual(KEYS);
    expect(sealed.algorithm).toBe('AES-256-GCM');
    expect(sealed.keyId).toMatch(/^local:[0-9a-f]{16}$/);
    expect(Buffer.from(sealed.encryptedDataKey, 'base64')).toHaveLength(12 + 32 + 16);
    expect(again.ciphertext).not.toBe(sealed.ciphertext);
    expect(again.encryptedDataKey).not.toBe(sealed.encryptedDataKey);
    expect(JSON.stringify(sealed)).not.toContain(KEYS.privateKey);
  });

  it.each([
    ['ciphertext', (sealed: SealedMerchantKeys) => ({ ...sealed, ciphertext: flipped(sealed.ciphertext) })],
    ['tag', (sealed: SealedMerchantKeys) => ({ ...sealed, tag: flipped(sealed.tag) })],
    ['iv', (sealed: SealedMerchantKeys) => ({ ...sealed, iv: flipped(sealed.iv) })],
    ['data key', (sealed: SealedMerchantKeys) => ({ ...sealed, encryptedDataKey: flipped(sealed.encryptedDataKey) })],
    ['algorithm', (sealed: SealedMerchantKeys) => ({ ...sealed, algorithm: 'AES-128-CBC' }) as unknown as SealedMerchantKeys],
  ])('refuses sealed keys whose %s was changed', async (_part, tamper) => {
    // Prepare
    const sealed = await seal();

    // Act
    const error = await caught(open(tamper(sealed)));

    // Assess
    expect(error).toBeInstanceOf(MerchantKeysUnreadable);
    expectNoKeyMaterial(error);
  });

  it("refuses to open one merchant account's keys as another's", async () => {
    // Prepare
    const sealed = await seal('merchant-account-1');

    // Act
    const error = await caught(open(sealed, 'merchant-account-2'));

    // Assess
    expect(error).toBeInstanceOf(MerchantKeysUnreadable);
    expect((error as Error).message).toContain('merchant-account-2');
  });

  it('refuses keys sealed with another local key (the data folder was replaced)', async () => {
    // Prepare
    const sealed = await seal();
    const otherKey = ensureMerchantKeysKey(join(dataDir, 'other.key'));

    // Act
    const error = await caught(asFunction('open', local('open', otherKey), () => openMerchantKeys('merchant-account-1', sealed)));

    // Assess
    expect(error).toBeInstanceOf(MerchantKeysUnreadable);
  });

  it("lets a 'seal' function seal and refuses it the open, as IAM refuses its kms:Decrypt", async () => {
    // Act
    const sealed = await asFunction('seal', local('seal'), () => sealMerchantKeys('merchant-account-1', KEYS));
    const refused = await caught(asFunction('seal', local('seal'), () => openMerchantKeys('merchant-account-1', sealed)));
    // The environment alone does not grant it: the calling function's own capability decides too.
    const spoofed = await caught(asFunction('seal', local('open'), () => openMerchantKeys('merchant-account-1', sealed)));

    // Assess
    for (const error of [refused, spoofed]) {
      expect(error).toBeInstanceOf(MerchantKeysAccessDenied);
      expect((error as Error).message).toContain('kms:Decrypt');
      expectNoKeyMaterial(error);
    }
  });

  it('gives a function without the capability a ConfigError naming it', async () => {
    // Act
    const sealing = await caught(asFunction('none', {}, () => sealMerchantKeys('merchant-account-1', KEYS)));

    // Assess
    expect(sealing).toBeInstanceOf(ConfigError);
    expect((sealing as Error).message).toMatch(/MERCHANT_KEYS.*merchantKeys/);
  });

  it('names a missing field of the keys to seal, never a value', async () => {
    // Act
    const error = await caught(
      asFunction('open', local('open'), () => sealMerchantKeys('merchant-account-1', { ...KEYS, publicKey: ' ' })),
    );

    // Assess
    expect((error as Error).message).toContain('publicKey');
    expectNoKeyMaterial(error);
  });
});

function flipped(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}
