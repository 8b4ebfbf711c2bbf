/**
 * Benchmark: 1,000 like and unlike calls at once on one story, through the running local
 * runtime (`API_URL`), against its table (`DYNAMODB_ENDPOINT`, `TABLE_NAME`). 50 readers open
 * the story, then each sends 20 calls, likes and unlikes at random, all sent at once over 64
 * sockets. Prints one JSON line: the wall time, the answers, and whether the story's
 * count equals its like items afterwards (it must, whatever the interleaving).
 */
import { Agent, request } from 'node:http';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { APPLICATION_ID_HEADER, SESSION_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';
import { storyInTable } from '../support/stories';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const { API_URL: apiUrl, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName } = process.env;
if (!apiUrl || !endpoint || !tableName)
  throw new Error('Usage: API_URL=... DYNAMODB_ENDPOINT=... TABLE_NAME=... concurrent-likes.ts');

const READERS = 50;
const CALLS = 1_000;
/**
 * Sockets the calls share. All 1,000 are sent at once and queue for these, as a browser's or a
 * load balancer's would; 1,000 fresh connections at once would overflow the listen backlog.
 */
const SOCKETS = 64;
const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });

/** A PUT through the shared sockets; answers the status. */
function put(path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(`${apiUrl}${path}`, { method: 'PUT', agent, headers: headers(token) }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    call.on('error', reject);
    call.end();
  });
}
const db = createDb(createDocumentClient({ endpoint, region: 'us-east-1' }), tableName);
const headers = (token: string) => ({ [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID, cookie: `${SESSION_HEADER}=${token}` });

/** A new account signed in for real (a login link spent at the confirm endpoint): its session and id. */
async function signIn(index: number): Promise<{ token: string; userId: string }> {
  const { token } = await issueLoginLink(db, { email: `bench-liker-${Date.now()}-${index}@example.com` });
  const answer = await fetch(`${apiUrl}/api/i/user/auth/login/email/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID },
    body: JSON.stringify({ token }),
  });
  const session = /ssoat=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`Sign-in failed with ${answer.status}: ${await answer.text()}`);
  const { user } = (await answer.json()) as { user: { userId: string } };
  return { token: session, userId: user.userId };
}

const sharer = await signIn(-1);
const storyId = await storyInTable(sharer, 'Benchmark: a story everyone likes');
const readers: string[] = [];
for (let index = 0; index < READERS; index += 1) readers.push((await signIn(index)).token);
await Promise.all(
  readers.map((token) => fetch(`${apiUrl}/api/i/stories/story/${storyId}/go`, { headers: headers(token), redirect: 'manual' })),
);

const started = performance.now();
const answers = await Promise.all(
  Array.from({ length: CALLS }, (_, index) => {
    const token = readers[index % READERS] as string;
    const status = Math.random() < 0.5 ? 'on' : 'off';
    return put(`/api/i/stories/story/${storyId}/like/${status}`, token);
  }),
);
const wallMs = performance.now() - started;

const { data: story } = await db.entities.story.get({ storyId }).go({ consistent: true });
const { data: relations } = await db.entities.storyRelation.query.byStory({ storyId }).go({ pages: 'all', consistent: true });
const likes = relations.filter((relation) => relation.likedAt !== undefined).length;
const statuses: Record<string, number> = {};
for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
agent.destroy();
console.log(
  JSON.stringify({ calls: CALLS, sockets: SOCKETS, wallMs: Math.round(wallMs), statuses, likeCount: story?.likeCount, likes }),
);
