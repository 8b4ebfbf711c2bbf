import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../shared/capabilities';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { ConfigError, getConfig, SettingNotDeclared } from '../../functions/lib/config';
import { createDocumentClient } from '../../functions/lib/db/client';
import { getDb } from '../../functions/lib/db/service';
import { runAsFunction } from '../../functions/lib/function-environment';
import { hashToken } from '../../functions/lib/app-auth';
import { MerchantKeysAccessDenied, openMerchantKeys, sealMerchantKeys } from '../../functions/lib/payments/merchant-keys';
import { ensureMerchantKeysKey } from '../../infra/local/runtime';
import { enforceTableGrants } from '../../infra/local/grants';
import { functionScope } from '../../infra/local/functions';
import type { DeploymentSettings } from '../../infra/function-environment';
import { createTestTable, type TestTable } from '../support/dynamo';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const READ_ONLY = capabilitiesOf({}, { table: 'read' });
const READ_WRITE = capabilitiesOf({}, { table: 'read-write' });
const scope = (capabilities: typeof READ_ONLY, env: Record<string, string> = {}) => ({
  name: 'capability-test',
  capabilities,
  env: { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com', ...env },
});

describe('table grants, enforced locally as IAM enforces them in AWS', () => {
  let table: TestTable;
  const client = () => {
    const documentClient = createDocumentClient({ endpoint: table.endpoint, region: 'us-east-1' });
    enforceTableGrants(documentClient);
    return documentClient;
  };

  beforeAll(async () => {
    table = await createTestTable();
  });

  it('refuses a write from a function granted only reads, with the error DynamoDB gives', async () => {
    // Prepare
    const documentClient = client();
    const put = new PutCommand({ TableName: table.tableName, Item: { pk: 'grant-test', sk: 'a' } });

    // Act
    const refused = await runAsFunction(scope(READ_ONLY), () => documentClient.send(put)).catch((error: unknown) => error);
    const stored = await documentClient.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'grant-test', sk: 'a' } }));

    // Assess
    expect(refused).toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
    expect(String((refused as Error).message)).toContain('dynamodb:PutItem');
    expect(stored.Item).toBeUndefined();
  });

  it('lets the same function read, and a read-write function write', async () => {
    // Prepare
    const documentClient = client();
    const key = { pk: 'grant-test', sk: 'b' };

    // Act
    await runAsFunction(scope(READ_WRITE), () => documentClient.send(new PutCommand({ TableName: table.tableName, Item: key })));
    const read = await runAsFunction(scope(READ_ONLY), () =>
      documentClient.send(new GetCommand({ TableName: table.tableName, Key: key })),
    );

    // Assess
    expect(read.Item).toEqual(key);
  });
});

describe('settings, given only to the functions that declare them', () => {
  it('refuses a setting group the route did not declare, even when the deployment has it', () => {
    // Prepare
    const env = { GOOGLE_CLIENT_ID: 'client-1' };

    // Act
    const undeclared = () => runAsFunction(scope(READ_ONLY, env), () => getConfig().googleClientId);
    const declared = runAsFunction(scope(READ_ONLY, { ...env, DECLARED_SETTINGS: 'google' }), () => getConfig().googleClientId);

    // Assess
    expect(undeclared).toThrow(SettingNotDeclared);
    expect(declared).toBe('client-1');
  });

  it('gives the sender address only to functions with the email capability', () => {
    // Act
    const withoutEmail = () => runAsFunction(scope(READ_WRITE), () => getConfig().mailFrom);
    const withEmail = runAsFunction(scope(READ_WRITE, { MAIL_FROM: 'TopPubs <login@example.com>' }), () => getConfig().mailFrom);

    // Assess
    expect(withoutEmail).toThrow(/MAIL_FROM/);
    expect(withEmail).toBe('TopPubs <login@example.com>');
  });
});

describe('the payment gateway, given only to the functions that declare payments', () => {
  const deployment: DeploymentSettings = {
    common: { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com' },
    email: {},
    bucket: {},
    realtime: {},
    payments: { PAYMENT_GATEWAY: 'local', PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9' },
    queues: {},
    settings: {},
  };

  it('refuses it to a function without the capability, as AWS gives that function neither the secret nor its name', () => {
    // Act
    const without = () => runAsFunction(functionScope('no-payments', READ_WRITE, deployment), () => getConfig().paymentGateway);
    const withPayments = runAsFunction(
      functionScope('payments', capabilitiesOf({ payments: true }, { table: 'read-write' }), deployment),
      () => getConfig().paymentGateway,
    );

    // Assess
    expect(without).toThrow(/PAYMENT_GATEWAY/);
    expect(withPayments).toEqual({ kind: 'local', url: 'http://127.0.0.1:9' });
  });
});

describe("merchants' gateway keys, sealed and opened only by the functions that declare it", () => {
  let dataDir: string;
  let deployment: DeploymentSettings;
  const withKeys = (merchantKeys: 'none' | 'seal' | 'open') =>
    functionScope(`keys-${merchantKeys}`, capabilitiesOf({ merchantKeys }, { table: 'read-write' }), deployment);
  const KEYS = { environment: 'local' as const, merchantId: 'shop', publicKey: 'shop-public', privateKey: 'shop-private' };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'capability-keys-'));
    deployment = {
      common: { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com' },
      email: {},
      bucket: {},
      realtime: {},
      payments: {},
      merchantKeys: {
        MERCHANT_KEYS: 'local',
        MERCHANT_KEYS_FILE: ensureMerchantKeysKey(join(dataDir, 'merchant-keys.key')),
        MERCHANT_GATEWAY_URL: 'http://127.0.0.1:9',
      },
      queues: {},
      settings: {},
    };
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses the settings to a function without the capability, as AWS gives it neither the key nor its ARN', () => {
    // Act
    const without = () => runAsFunction(withKeys('none'), () => getConfig().merchantKeys);
    const gatewayUrl = () => runAsFunction(withKeys('none'), () => getConfig().merchantGatewayUrl);
    const sealing = runAsFunction(withKeys('seal'), () => getConfig().merchantKeys);
    const opening = runAsFunction(withKeys('open'), () => getConfig().merchantKeys);

    // Assess
    expect(without).toThrow(ConfigError);
    expect(without).toThrow(/MERCHANT_KEYS/);
    expect(gatewayUrl).toThrow(ConfigError);
    expect(sealing).toEqual({ kind: 'local', keyFile: join(dataDir, 'merchant-keys.key'), mode: 'seal' });
    expect(opening).toMatchObject({ kind: 'local', mode: 'open' });
    expect(runAsFunction(withKeys('open'), () => getConfig().merchantGatewayUrl)).toBe('http://127.0.0.1:9');
  });

  it("lets a 'seal' function seal but not open, as IAM grants it kms:GenerateDataKey only; an 'open' function does both", async () => {
    // Act
    const sealed = await runAsFunction(withKeys('seal'), () => sealMerchantKeys('shop-1', KEYS));
    const refused = await runAsFunction(withKeys('seal'), () => openMerchantKeys('shop-1', sealed)).catch(
      (error: unknown) => error,
    );
    const opened = await runAsFunction(withKeys('open'), () => openMerchantKeys('shop-1', sealed));
    const notDeclared = await runAsFunction(withKeys('none'), () => sealMerchantKeys('shop-1', KEYS)).catch(
      (error: unknown) => error,
    );

    // Assess
    expect(refused).toBeInstanceOf(MerchantKeysAccessDenied);
    expect(opened).toEqual(KEYS);
    expect(notDeclared).toBeInstanceOf(ConfigError);
  });
});

describe('a returning user (session due for renewal) on the local runtime', () => {
  let runtime: TestRuntime;
  let token: string;
  const DAY_MS = 24 * 3600 * 1000;

  const lastUsedAt = async () =>
    (
      await getDb()
        .entities.session.get({ tokenHash: hashToken(token) })
        .go()
    ).data?.lastUsedAt;
  const ageSession = async () => {
    await getDb()
      .entities.session.patch({ tokenHash: hashToken(token) })
      .set({ lastUsedAt: new Date(Date.now() - 3 * DAY_MS).toISOString() })
      .go();
    return lastUsedAt();
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ seedPublications: 0 });
    const link = await issueLoginLink(getDb(), { email: 'returning@example.com' });
    const response = await runtime.post('/api/i/user/auth/login/email/confirm', { token: link.token });
    token = /ssoat=([^;]+)/.exec(response.headers.getSetCookie().join(';'))?.[1] ?? '';
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it('is served by read-only routes, which leave the session as it is', async () => {
    // Prepare
    const aged = await ageSession();

    // Act: a route with read-only table grants, which in AWS could not renew the session.
    const settings = await runtime.get('/api/i/user/me/v/settings', { cookie: `ssoat=${token}` });

    // Assess
    expect(settings.status).toBe(200);
    expect(await lastUsedAt()).toBe(aged);
  });

  it('gets the session renewed by the current-user route every app calls first', async () => {
    // Prepare
    const aged = await ageSession();

    // Act
    const me = await runtime.get('/api/i/user/me/v', { cookie: `ssoat=${token}` });

    // Assess
    expect(me.status).toBe(200);
    expect(Date.parse((await lastUsedAt()) ?? '')).toBeGreaterThan(Date.parse(aged ?? '') + 2 * DAY_MS);
  });
});
