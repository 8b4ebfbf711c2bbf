import { createCipheriv, createDecipheriv, createHash, type DecipherGCM, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { KMSClient } from '@aws-sdk/client-kms';
import { mayOpenMerchantKeys } from '../../../shared/capabilities';
import { boundedRequestHandler } from '../aws-request-handler';
import { ConfigError, getConfig, type MerchantKeySettings } from '../config';
import { isDependencyUnavailable, ServiceUnavailable } from '../errors';
import { currentFunction } from '../function-environment';

/**
 * Merchants' own Braintree keys, encrypted at rest (the storefront: every gateway call for a
 * merchant's products uses that merchant's keys). Envelope encryption: each sealing makes a
 * fresh 256-bit data key, the keys are encrypted with it (AES-256-GCM, the merchant account's id
 * as additional authenticated data), and only the data key's encrypted form is kept beside them.
 *
 * - In AWS the data key comes from KMS (GenerateDataKey, AES_256) under the data stack's key,
 *   bound to the merchant account by the encryption context `{ merchantAccountId }`; opening is
 *   KMS Decrypt with the same context, which IAM allows only to functions whose capability is
 *   'open'. The plaintext data key lives only for the one call and is zeroed after use.
 * - Locally a 32-byte key-encryption key in a file under the data folder (made by the local
 *   runtime, mode 0600) wraps a random data key with AES-256-GCM, so the sealed shape is the
 *   same; a 'seal'-only function is refused an open, as IAM would refuse its Decrypt.
 *
 * Nothing here puts key material, a merchant's keys or a data key, in a message or a log.
 */

export type MerchantGatewayEnvironment = 'local' | 'sandbox' | 'production';

export interface MerchantGatewayKeys {
  environment: MerchantGatewayEnvironment;
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/** What is stored: every binary field in base64. */
export interface SealedMerchantKeys {
  algorithm: 'AES-256-GCM';
  /** The key-encryption key: the KMS key's ARN, or `local:` and the local key's fingerprint. */
  keyId: string;
  /** The data key, encrypted by KMS (or wrapped by the local key). */
  encryptedDataKey: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** Anything that went wrong sealing or opening merchant keys. */
export class MerchantKeysError extends Error {
  override name = 'MerchantKeysError';
}

/** This function may not do that: KMS (IAM) refused it, or locally its capability is only 'seal'. */
export class MerchantKeysAccessDenied extends MerchantKeysError {
  override name = 'MerchantKeysAccessDenied';
}

/**
 * The sealed keys cannot be opened as this merchant account's: changed since they were sealed,
 * sealed for another merchant account, or with another key.
 */
export class MerchantKeysUnreadable extends MerchantKeysError {
  override name = 'MerchantKeysUnreadable';
}

/** KMS is throttling or out of reach: nothing was sealed or opened; try again. */
export class MerchantKeysUnavailable extends ServiceUnavailable {
  constructor(options?: { cause?: unknown }) {
    super("The merchant's payment settings cannot be read right now. Please try again in a minute.", options);
  }
}

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENVIRONMENTS: readonly MerchantGatewayEnvironment[] = ['local', 'sandbox', 'production'];
const LOCAL_KEY_ID_PREFIX = 'local:';
/** KMS answers these when it is throttling or has trouble of its own: the caller may retry. */
const KMS_UNAVAILABLE_NAMES = new Set(['DependencyTimeoutException', 'KMSInternalException', 'ThrottlingException']);
/** Answers about the ciphertext or its context, rather than about us. */
const KMS_UNREADABLE_NAMES = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

// One client for the warm function; its region is the function's own (AWS_REGION). Made, with
// the SDK loaded (kms-sdk.ts), by the first call to KMS rather than at import.
let client: KMSClient | undefined;
async function kms() {
  const sdk = await import('./kms-sdk');
  client ??= new sdk.KMSClient({
    maxAttempts: 2,
    requestHandler: boundedRequestHandler(5_000),
  });
  return { client, ...sdk };
}

export async function sealMerchantKeys(merchantAccountId: string, keys: MerchantGatewayKeys): Promise<SealedMerchantKeys> {
  checkAccountId(merchantAccountId);
  const plaintext = Buffer.from(JSON.stringify(checkedKeys(keys)), 'utf8');
  try {
    const settings = getConfig().merchantKeys;
    const dataKey =
      settings.kind === 'kms'
        ? await kmsDataKey(settings.keyArn, merchantAccountId)
        : await localDataKey(settings, merchantAccountId);
    try {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, dataKey.plaintext, iv);
      cipher.setAAD(Buffer.from(merchantAccountId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return {
        algorithm: 'AES-256-GCM',
        keyId: dataKey.keyId,
        encryptedDataKey: dataKey.encrypted.toString('base64'),
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        ciphertext: ciphertext.toString('base64'),
      };
    } finally {
      dataKey.plaintext.fill(0);
    }
  } finally {
    plaintext.fill(0);
  }
}

export async function openMerchantKeys(merchantAccountId: string, sealed: SealedMerchantKeys): Promise<MerchantGatewayKeys> {
  checkAccountId(merchantAccountId);
  const parts = partsOf(sealed);
  const settings = getConfig().merchantKeys;
  const dataKey =
    settings.kind === 'kms'
      ? await kmsDecrypt(settings.keyArn, merchantAccountId, parts.encryptedDataKey)
      : await localUnwrap(settings, merchantAccountId, sealed.keyId, parts.encryptedDataKey);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv(ALGORITHM, dataKey, parts.iv);
    decipher.setAAD(Buffer.from(merchantAccountId, 'utf8'));
    decipher.setAuthTag(parts.tag);
    plaintext = decrypted(decipher, parts.ciphertext);
  } catch (error) {
    throw new MerchantKeysUnreadable(
      `The sealed gateway keys of merchant account ${merchantAccountId} do not verify: changed since they were sealed, or sealed for another merchant account.`,
      { cause: error },
    );
  } finally {
    dataKey.fill(0);
  }
  try {
    return keysOf(JSON.parse(plaintext.toString('utf8')) as unknown, merchantAccountId);
  } catch (error) {
    if (error instanceof MerchantKeysError) throw error;
    // The parser's message would quote the keys: not passed on.
    throw new MerchantKeysUnreadable(`The sealed gateway keys of merchant account ${merchantAccountId} are not keys.`);
  } finally {
    plaintext.fill(0);
  }
}

/** The decipher's whole output in one buffer, its pieces zeroed (they hold plaintext too). */
function decrypted(decipher: DecipherGCM, input: Buffer): Buffer {
  const head = decipher.update(input);
  const tail = decipher.final();
  const whole = Buffer.concat([head, tail]);
  head.fill(0);
  tail.fill(0);
  return whole;
}

function checkAccountId(merchantAccountId: string): void {
  if (typeof merchantAccountId !== 'string' || merchantAccountId.trim() === '' || merchantAccountId.length > 256) {
    throw new MerchantKeysError('A merchant account id (1 to 256 characters) is needed to seal or open its keys.');
  }
}

/** The keys to seal, exactly these fields; a field is named when missing, never its value. */
function checkedKeys(keys: MerchantGatewayKeys): MerchantGatewayKeys & { v: 1 } {
  const missing = (['merchantId', 'publicKey', 'privateKey'] as const).filter(
    (field) => typeof keys?.[field] !== 'string' || keys[field].trim() === '',
  );
  if (missing.length > 0) throw new MerchantKeysError(`The gateway keys to seal are missing ${missing.join(', ')}.`);
  if (!ENVIRONMENTS.includes(keys.environment)) {
    throw new MerchantKeysError(`The gateway keys' environment must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return {
    v: 1,
    environment: keys.environment,
    merchantId: keys.merchantId,
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
  };
}

function keysOf(value: unknown, merchantAccountId: string): MerchantGatewayKeys {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { environment, merchantId, publicKey, privateKey } = record;
  if (
    record.v !== 1 ||
    !ENVIRONMENTS.includes(environment as MerchantGatewayEnvironment) ||
    typeof merchantId !== 'string' ||
    typeof publicKey !== 'string' ||
    typeof privateKey !== 'string'
  ) {
    throw new MerchantKeysUnreadable(`The sealed gateway keys of merchant account ${merchantAccountId} are not keys.`);
  }
  return { environment: environment as MerchantGatewayEnvironment, merchantId, publicKey, privateKey };
}

function partsOf(sealed: SealedMerchantKeys) {
  const bytes = (field: keyof SealedMerchantKeys, length?: number): Buffer => {
    const value = sealed?.[field];
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw new MerchantKeysUnreadable(`Sealed merchant keys need ${field} in base64.`);
    }
    const decoded = Buffer.from(value, 'base64');
    if ((length !== undefined && decoded.length !== length) || decoded.length === 0) {
      throw new MerchantKeysUnreadable(`Sealed merchant keys have a ${field} of the wrong length.`);
    }
    return decoded;
  };
  if (sealed?.algorithm !== 'AES-256-GCM' || typeof sealed.keyId !== 'string') {
    throw new MerchantKeysUnreadable('Sealed merchant keys must be AES-256-GCM with a key id.');
  }
  return {
    encryptedDataKey: bytes('encryptedDataKey'),
    iv: bytes('iv', IV_BYTES),
    tag: bytes('tag', TAG_BYTES),
    ciphertext: bytes('ciphertext'),
  };
}

interface DataKey {
  /** Zeroed by the caller once used. */
  plaintext: Buffer;
  encrypted: Buffer;
  keyId: string;
}

/** The port's error for a KMS failure: access, an unreadable ciphertext, an outage, or our deployment's fault. */
function kmsFailure(error: unknown, operation: 'GenerateDataKey' | 'Decrypt', merchantAccountId: string): Error {
  const name = error instanceof Error ? error.name : '';
  if (name === 'AccessDeniedException') {
    return new MerchantKeysAccessDenied(`KMS refused kms:${operation} on the merchant keys' key to this function.`, {
      cause: error,
    });
  }
  if (KMS_UNREADABLE_NAMES.has(name)) {
    return new MerchantKeysUnreadable(
      `KMS could not open the data key of merchant account ${merchantAccountId}'s gateway keys (${name}): sealed for another merchant account, with another key, or changed.`,
      { cause: error },
    );
  }
  if (KMS_UNAVAILABLE_NAMES.has(name) || isDependencyUnavailable(error)) return new MerchantKeysUnavailable({ cause: error });
  // No such key, disabled, pending deletion: the deployment must be fixed.
  return new MerchantKeysError(`KMS ${operation} on the merchant keys' key failed (${name || 'error'}).`, { cause: error });
}

async function kmsDataKey(keyArn: string, merchantAccountId: string): Promise<DataKey> {
  let answer;
  try {
    const { client, GenerateDataKeyCommand } = await kms();
    answer = await client.send(
      new GenerateDataKeyCommand({ KeyId: keyArn, KeySpec: 'AES_256', EncryptionContext: { merchantAccountId } }),
    );
  } catch (error) {
    throw kmsFailure(error, 'GenerateDataKey', merchantAccountId);
  }
  const { Plaintext, CiphertextBlob, KeyId } = answer;
  // Copied into a buffer of ours, and the SDK's bytes zeroed at once.
  const plaintext = Buffer.from(Plaintext ?? new Uint8Array());
  Plaintext?.fill(0);
  if (plaintext.length !== KEY_BYTES || !CiphertextBlob || CiphertextBlob.length === 0) {
    plaintext.fill(0);
    throw new MerchantKeysError('KMS answered GenerateDataKey without a 256-bit data key and its ciphertext.');
  }
  return { plaintext, encrypted: Buffer.from(CiphertextBlob), keyId: KeyId ?? keyArn };
}

async function kmsDecrypt(keyArn: string, merchantAccountId: string, encryptedDataKey: Buffer): Promise<Buffer> {
  let answer;
  try {
    // KeyId pins the key: a data key sealed under any other key is refused, not decrypted.
    const { client, DecryptCommand } = await kms();
    answer = await client.send(
      new DecryptCommand({ KeyId: keyArn, CiphertextBlob: encryptedDataKey, EncryptionContext: { merchantAccountId } }),
    );
  } catch (error) {
    throw kmsFailure(error, 'Decrypt', merchantAccountId);
  }
  const plaintext = Buffer.from(answer.Plaintext ?? new Uint8Array());
  answer.Plaintext?.fill(0);
  if (plaintext.length !== KEY_BYTES) {
    plaintext.fill(0);
    throw new MerchantKeysError('KMS answered Decrypt without a 256-bit data key.');
  }
  return plaintext;
}

/* Locally: the key-encryption key in a file, standing in for the KMS key. */

type LocalSettings = Extract<MerchantKeySettings, { kind: 'local' }>;

const localKeys = new Map<string, Promise<{ key: Buffer; keyId: string }>>();

function localKeyOf(keyFile: string): Promise<{ key: Buffer; keyId: string }> {
  let loaded = localKeys.get(keyFile);
  if (!loaded) {
    loaded = readFile(keyFile).then(
      (key) => {
        if (key.length !== KEY_BYTES) {
          throw new ConfigError(`The local merchant-keys key ${keyFile} must hold exactly ${KEY_BYTES} bytes`);
        }
        return { key, keyId: `${LOCAL_KEY_ID_PREFIX}${createHash('sha256').update(key).digest('hex').slice(0, 16)}` };
      },
      (error: unknown) => {
        throw new ConfigError(
          `The local merchant-keys key ${keyFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): the local runtime makes it at start`,
          { cause: error },
        );
      },
    );
    localKeys.set(keyFile, loaded);
    loaded.catch(() => localKeys.delete(keyFile));
  }
  return loaded;
}

/** What KMS binds with the encryption context, bound here as the wrapping's additional data. */
const wrappingContext = (merchantAccountId: string) => Buffer.from(JSON.stringify({ merchantAccountId }), 'utf8');

async function localDataKey(settings: LocalSettings, merchantAccountId: string): Promise<DataKey> {
  const { key, keyId } = await localKeyOf(settings.keyFile);
  const plaintext = randomBytes(KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(wrappingContext(merchantAccountId));
  const wrapped = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { plaintext, encrypted: Buffer.concat([iv, wrapped, cipher.getAuthTag()]), keyId };
}

async function localUnwrap(
  settings: LocalSettings,
  merchantAccountId: string,
  sealedKeyId: string,
  encryptedDataKey: Buffer,
): Promise<Buffer> {
  // IAM grants Decrypt only to 'open' functions: the same refusal here, by the declared mode and
  // (inside the local runtime) by the calling function's own capability.
  const scope = currentFunction();
  if (settings.mode !== 'open' || (scope && !mayOpenMerchantKeys(scope.capabilities))) {
    const role = scope?.name ?? 'function';
    throw new MerchantKeysAccessDenied(
      `User: arn:aws:sts::000000000000:assumed-role/${role}/local is not authorized to perform: kms:Decrypt on the merchant keys' key: its merchantKeys capability is 'seal', not 'open'.`,
    );
  }
  const { key, keyId } = await localKeyOf(settings.keyFile);
  if (sealedKeyId !== keyId) {
    throw new MerchantKeysUnreadable(
      `The gateway keys of merchant account ${merchantAccountId} were sealed with another local key (was .data/merchant-keys.key replaced?).`,
    );
  }
  if (encryptedDataKey.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) {
    throw new MerchantKeysUnreadable(
      `The data key of merchant account ${merchantAccountId}'s gateway keys has the wrong length.`,
    );
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, encryptedDataKey.subarray(0, IV_BYTES));
    decipher.setAAD(wrappingContext(merchantAccountId));
    decipher.setAuthTag(encryptedDataKey.subarray(IV_BYTES + KEY_BYTES));
    return decrypted(decipher, encryptedDataKey.subarray(IV_BYTES, IV_BYTES + KEY_BYTES));
  } catch (error) {
    throw new MerchantKeysUnreadable(
      `The data key of merchant account ${merchantAccountId}'s gateway keys does not verify: sealed for another merchant account, or changed.`,
      { cause: error },
    );
  }
}
