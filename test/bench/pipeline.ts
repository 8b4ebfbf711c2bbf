import { pathToFileURL } from 'node:url';
import { print, run, verdict } from './support';

/** Microseconds of CPU one warm call may cost in the request pipeline, answer included. */
export const PIPELINE_BUDGET_MICROS = 20;
const CALLS = 100_000;

/**
 * A deployed handler called in a loop, in a fresh Node process, as Lambda calls a warm instance:
 * the cost of the request pipeline (middy, Powertools, access, validation) plus the handler,
 * without any HTTP server around it. A regression in the pipeline shows here first, without the
 * noise of a load test.
 */
export async function benchPipeline(
  label: string,
  bundleFile: string,
  event: { rawPath: string; query: Record<string, string> },
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const rawQueryString = new URLSearchParams(event.query).toString();
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundleFile).href)});
    const event = () => ({
      version: '2.0', routeKey: 'GET ${event.rawPath}', rawPath: ${JSON.stringify(event.rawPath)},
      rawQueryString: ${JSON.stringify(rawQueryString)}, queryStringParameters: ${JSON.stringify(event.query)},
      headers: { host: 'localhost', 'user-agent': 'bench', accept: '*/*' }, isBase64Encoded: false,
      requestContext: { accountId: 'local', apiId: 'local', domainName: 'localhost', domainPrefix: 'localhost',
        http: { method: 'GET', path: ${JSON.stringify(event.rawPath)}, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
        requestId: 'bench', routeKey: 'GET ${event.rawPath}', stage: '$default', time: '', timeEpoch: 0 },
    });
    const context = () => ({ callbackWaitsForEmptyEventLoop: false, functionName: 'bench', functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:bench', memoryLimitInMB: '256', awsRequestId: 'bench',
      logGroupName: 'bench', logStreamName: 'bench', getRemainingTimeInMillis: () => 29_000 });
    const first = await handler(event(), context());
    if (first.statusCode !== 200) throw new Error('The handler answered ' + first.statusCode + ': ' + first.body);
    for (let call = 0; call < 20_000; call += 1) await handler(event(), context());
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let call = 0; call < ${CALLS}; call += 1) await handler(event(), context());
    const used = process.cpuUsage(cpu);
    console.log(JSON.stringify({ cpu: (used.user + used.system) / ${CALLS}, wall: ((performance.now() - started) * 1000) / ${CALLS} }));
  `;
  const { cpu, wall } = JSON.parse(await run(process.execPath, ['--input-type=module', '-e', script], env, { quiet: true })) as {
    cpu: number;
    wall: number;
  };
  print(
    `${label}: ${cpu.toFixed(1)} µs CPU per call, ${wall.toFixed(1)} µs wall (budget <= ${PIPELINE_BUDGET_MICROS} µs CPU): ${verdict(cpu <= PIPELINE_BUDGET_MICROS)}`,
  );
}
