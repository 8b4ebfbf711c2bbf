/**
 * Benchmark: 1,000 like and unlike calls at once on one story, through the running local
 * runtime (`API_URL`), against its table (`DYNAMODB_ENDPOINT`, `TABLE_NAME`). 50 readers open
 * the story, then each sends 20 calls, likes and unlikes at random, all sent at once over 64
 * sockets. Prints one JSON line: the wall time, the answers, and whether the story's
 * count equals its like items afterwards (it must, whatever the interleaving).
 */
import { Agent, request } from 'node:http';
import { addShardedLikes } from '../../functions/stories/lib/story-like-count';
import { storyInTable } from '../support/stories';
import { apiUrl, db, headers, openStory, signIn } from './bench-session';

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
const sharer = await signIn('sharer');
const storyId = await storyInTable(sharer, 'Benchmark: a story everyone likes');
const readers: string[] = [];
for (let index = 0; index < READERS; index += 1) readers.push((await signIn(`liker-${index}`)).token);
await Promise.all(readers.map((token) => openStory(storyId, token)));

const started = performance.now();
const answers = await Promise.all(
  Array.from({ length: CALLS }, (_, index) => {
    const token = readers[index % READERS] as string;
    const status = Math.random() < 0.5 ? 'on' : 'off';
    return put(`/api/i/stories/story/${storyId}/like/${status}`, token);
  }),
);
const wallMs = performance.now() - started;

const { data: item } = await db.entities.story.get({ storyId }).go({ consistent: true });
// A story whose likes collided counts them in shards: read together with its own count.
const [story] = item ? await addShardedLikes(db, [item], { consistent: true }) : [];
const { data: relations } = await db.entities.storyRelation.query.byStory({ storyId }).go({ pages: 'all', consistent: true });
const likes = relations.filter((relation) => relation.likedAt !== undefined).length;
const statuses: Record<string, number> = {};
for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
agent.destroy();
console.log(
  JSON.stringify({ calls: CALLS, sockets: SOCKETS, wallMs: Math.round(wallMs), statuses, likeCount: story?.likeCount, likes }),
);
