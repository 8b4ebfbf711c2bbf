import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleFunctions, type BundleResult, REPO_ROOT } from '../../infra/build/bundle-functions';
import { ensureTable } from '../../infra/local/dynamodb-local';
import { EVERY_FUNCTION } from '../../shared/functions';
import { packageOf, undeclaredDependencies } from '../support/bundle-dependencies';

const run = promisify(execFile);

/** Runs `call` on a bundle's handler in a fresh node, as Lambda would, and returns its JSON answer. */
async function callBundled(bundle: BundleResult, call: string, env: Record<string, string>): Promise<unknown> {
  const script = `const m=await import(${JSON.stringify(pathToFileURL(bundle.file).href)});console.log(JSON.stringify(await ${call}))`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env } });
  return JSON.parse(stdout) as unknown;
}

describe('Lambda bundles', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'toppubs-bundles-'));
  let bundles: Map<string, BundleResult>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const results = await bundleFunctions({
      outDir,
      analyze: true,
      entries: [
        { name: 'probe/db', entry: join(REPO_ROOT, 'test/infra/fixtures/bundled-db-probe.ts') },
        { name: 'probe/lazy', entry: join(REPO_ROOT, 'test/infra/fixtures/bundled-lazy-probe.ts') },
        { name: 'platform/get-health', entry: join(REPO_ROOT, 'functions/platform/get-health.ts') },
        { name: 'ranking/search-pubs', entry: join(REPO_ROOT, 'functions/ranking/search-pubs.ts') },
        // A shop route that never reaches a gateway, beside the one that connects it.
        { name: 'penpay/update-product-display', entry: join(REPO_ROOT, 'functions/penpay/update-product-display.ts') },
        { name: 'penpay/connect-merchant-gateway', entry: join(REPO_ROOT, 'functions/penpay/connect-merchant-gateway.ts') },
        // An image route, beside a shop route that only shows images.
        { name: 'transfers/upload-image-by-base64', entry: join(REPO_ROOT, 'functions/transfers/upload-image-by-base64.ts') },
        { name: 'penpay/get-product', entry: join(REPO_ROOT, 'functions/penpay/get-product.ts') },
      ],
    });
    bundles = new Map(results.map((result) => [result.name, result]));
    const tableName = `bundle-${Date.now().toString(36)}`;
    await ensureTable(inject('dynamoEndpoint'), tableName);
    env = {
      TABLE_NAME: tableName,
      ALLOWED_ORIGINS: 'https://app.example.com',
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      AWS_REGION: 'us-east-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    };
  }, 180_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('lets bundled ElectroDB make every kind of request', async () => {
    // Act
    const answer = await callBundled(bundles.get('probe/db') as BundleResult, 'm.handler()', env);

    // Assess
    expect(answer).toEqual({ got: 's1', byUser: ['s1', 's2'], batch: ['s1:probe', 's2:'], afterDelete: null });
  });

  it('gives ElectroDB only the commands it uses, not the whole DynamoDB client', () => {
    // Prepare
    const inputs = Object.keys(bundles.get('probe/db')?.inputs ?? {});

    // Assess
    expect(inputs.some((input) => input.includes('@aws-sdk/lib-dynamodb/dist-es/commands/TransactWriteCommand'))).toBe(true);
    expect(inputs.filter((input) => /client-dynamodb\/dist-es\/commands\/(CreateBackup|DeleteTable)Command/.test(input))).toEqual(
      [],
    );
  });

  it('answers a request through the bundled pipeline', async () => {
    // Act
    const answer = (await callBundled(
      bundles.get('platform/get-health') as BundleResult,
      `m.handler({version:'2.0',rawPath:'/api/health',rawQueryString:'',headers:{origin:'https://app.example.com'},isBase64Encoded:false,requestContext:{http:{method:'GET',path:'/api/health'},requestId:'r'}},{functionName:'f',awsRequestId:'r',getRemainingTimeInMillis:()=>5000})`,
      env,
    )) as { statusCode: number; headers: Record<string, string>; body: string };

    // Assess
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // CORS headers are API Gateway's to add (shared/constants.ts, API_CORS).
    expect(Object.keys(answer.headers).filter((name) => name.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });

  it("builds only the handler's own route and schemas, which still validate", async () => {
    // Prepare
    const bundle = bundles.get('ranking/search-pubs') as BundleResult;
    const code = readFileSync(bundle.file, 'utf8');

    // Act
    const answer = (await callBundled(
      bundle,
      `m.handler({version:'2.0',rawPath:'/api/i/toppubs/search',rawQueryString:'q=',headers:{},queryStringParameters:{q:''},isBase64Encoded:false,requestContext:{http:{method:'GET',path:'/api/i/toppubs/search'},requestId:'r'}},{functionName:'f',awsRequestId:'r',getRemainingTimeInMillis:()=>5000})`,
      env,
    )) as { statusCode: number; body: string };

    // Assess: the other ranking routes (and their schemas' messages) are not in the bundle.
    // (Booleans, not toContain: a failure would print the whole bundle.)
    expect(code.includes('/api/i/toppubs/search')).toBe(true);
    expect(code.includes('/api/i/toppubs/load/pubs')).toBe(false);
    expect(code.includes('Must be an http(s) URL')).toBe(false);
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ fields: [{ in: 'query', field: 'q' }] });
  });

  it("leaves out what a cold start never runs: the model validator, ElectroDB's Service and the streaming imports", () => {
    // Prepare
    const bundle = bundles.get('platform/get-health') as BundleResult;
    const inputs = Object.keys(bundle.inputs ?? {});
    const code = readFileSync(bundle.file, 'utf8');

    // Assess
    expect(inputs.filter((input) => input.includes('node_modules/jsonschema/'))).toEqual([]);
    expect(inputs.some((input) => input.includes('node_modules/electrodb/'))).toBe(true);
    expect(inputs.filter((input) => input.includes('node_modules/electrodb/src/service.js'))).toEqual([]);
    expect(/from\s*"node:stream\/(web|promises)"/.test(code)).toBe(false);
  });

  it("imports without loading Node's web streams (some 2 ms of a cold start), in a bundle beside SDK clients it loads on first use", async () => {
    // Prepare: a gateway route, whose bundle holds the SES and KMS clients' shared SDK code.
    const bundle = bundles.get('penpay/connect-merchant-gateway') as BundleResult;
    const script =
      'const before = new Set(process.moduleLoadList);' +
      `await import(${JSON.stringify(pathToFileURL(bundle.file).href)});` +
      'console.log(JSON.stringify(process.moduleLoadList.filter((name) => !before.has(name))))';

    // Act
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env } });
    const loaded = JSON.parse(stdout) as string[];

    // Assess
    expect(loaded.some((name) => name.includes('internal/streams/readable'))).toBe(true);
    expect(loaded.filter((name) => name.includes('webstreams'))).toEqual([]);
  });

  it('carries only the heavy dependencies that its capabilities declare (test/support/bundle-dependencies.ts)', () => {
    // Prepare
    const functions = [...bundles.keys()].filter((name) => !name.startsWith('probe/'));

    // Act
    const undeclared = functions.flatMap((name) =>
      EVERY_FUNCTION.filter((entry) => entry.handler === name).flatMap((entry) =>
        undeclaredDependencies(entry.capabilities, Object.keys(bundles.get(name)?.inputs ?? {})).map(
          (found) => `${name} carries ${found.package} (${found.what}), which only ${found.allowedBy} allows`,
        ),
      ),
    );

    // Assess
    expect(functions).toHaveLength(6);
    expect(undeclared).toEqual([]);
  });

  it('loads the gateway SDK, image decoding, ElectroDB and the AWS clients on first use: chunks in its folder, not compiled at import', () => {
    // Prepare
    const packagesOf = (inputs: Readonly<Record<string, number>> | undefined) =>
      new Set(Object.keys(inputs ?? {}).map(packageOf));

    // Assess: what the asset holds, and what its import compiles.
    for (const [name, lazy] of [
      ['penpay/connect-merchant-gateway', ['braintree', 'electrodb', '@aws-sdk/client-kms', '@aws-sdk/client-s3']],
      ['transfers/upload-image-by-base64', ['electrodb', 'file-type', 'image-size', '@aws-sdk/client-s3']],
      ['platform/get-health', ['electrodb']],
    ] as const) {
      const bundle = bundles.get(name) as BundleResult;
      const folder = dirname(bundle.file);
      const files = bundle.files.map((file) => relative(folder, file));
      expect(files[0], name).toBe('index.mjs');
      expect(
        files.slice(1).every((file) => /^chunks\/[\w.-]+\.mjs$/.test(file)),
        name,
      ).toBe(true);
      expect(bundle.files.reduce((sum, file) => sum + statSync(file).size, 0)).toBe(bundle.bytes);
      expect(bundle.importBytes).toBeLessThan(bundle.bytes);
      const shipped = packagesOf(bundle.inputs);
      const imported = packagesOf(bundle.importInputs);
      for (const library of lazy) {
        expect(shipped.has(library), `${name} ships ${library}`).toBe(true);
        expect(imported.has(library), `${name} compiles ${library} at import`).toBe(false);
      }
    }
  });

  it('runs the libraries it loads on first use from inside the bundle', async () => {
    // Act
    const answer = await callBundled(bundles.get('probe/lazy') as BundleResult, 'm.handler()', {
      ...env,
      FILE_BUCKET_NAME: 'probe-bucket',
      AWS_ACCESS_KEY_ID: 'probe',
      AWS_SECRET_ACCESS_KEY: 'probe',
    });

    // Assess: the image was read by the image libraries, the webhook refused by Braintree's SDK,
    // the download signed by S3's presigner.
    expect(answer).toEqual({ image: { type: 'image/png', width: 1, height: 1 }, webhook: 'INVALID_SIGNATURE', download: true });
  });
});
