/**
 * Benchmark: how long a like takes to reach the liked person's bell. The sharer keeps one
 * WebSocket open as the web app does (a ticket from the realtime client route); a reader likes
 * 200 of their stories one after another, and each delay runs from sending the like to the new
 * unseen count arriving over the socket. Prints one JSON line: the median, p99 and worst delay,
 * and how many counts never arrived (within 5 s).
 */
import { storyInTable } from '../support/stories';
import { openListener, realtimeUrl } from '../support/realtime';
import { apiUrl, headers, openStory, signIn } from './bench-session';

const LIKES = 200;
const ARRIVAL_TIMEOUT_MS = 5_000;

const sharer = await signIn('bell-sharer');
const reader = await signIn('bell-reader');
const storyIds: string[] = [];
for (let index = 0; index < LIKES; index += 1) storyIds.push(await storyInTable(sharer, `Bell benchmark ${index + 1}`));
for (const storyId of storyIds) await openStory(storyId, reader.token);

const ticket = (await (
  await fetch(`${apiUrl}/api/i/user/auth/login/pusher/client`, { headers: headers(sharer.token) })
).json()) as { endpoint: string; ticket: string };
const bell = await openListener(realtimeUrl(ticket.endpoint, ticket.ticket, apiUrl), apiUrl);
const delays: number[] = [];
let missing = 0;
for (const [index, storyId] of storyIds.entries()) {
  const sent = performance.now();
  const answer = await fetch(`${apiUrl}/api/i/stories/story/${storyId}/like/on`, {
    method: 'PUT',
    headers: headers(reader.token),
  });
  if (answer.status !== 200) throw new Error(`Like ${index + 1} answered ${answer.status}: ${await answer.text()}`);
  try {
    await bell.next((message) => message.type === 'unseen-counts' && message.counts.total === index + 1, ARRIVAL_TIMEOUT_MS);
    delays.push(performance.now() - sent);
  } catch {
    missing += 1;
  }
}
await bell.close();

const sorted = delays.toSorted((a, b) => a - b);
const at = (quantile: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? NaN) * 10) / 10;
console.log(JSON.stringify({ likes: LIKES, medianMs: at(0.5), p99Ms: at(0.99), maxMs: at(1), missing }));
