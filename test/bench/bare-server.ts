/**
 * The reference for the API throughput target: a bare node:http server answering every request
 * with the same JSON body the real endpoint returns. Prints its port once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Record<string, string>;
const server = createServer((request, response) => {
  const body = bodies[request.url ?? ''] ?? '{}';
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
