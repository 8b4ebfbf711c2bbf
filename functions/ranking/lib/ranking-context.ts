import { getDb } from '../../lib/db/service';
import { PreparedJson } from '../../lib/http/responses';
import { LruCache } from '../../lib/lru-cache';
import { BoardReader, type Manifest } from './board-reader';

/** One reader and one answer cache per Lambda instance, shared by the ranking handlers in it. */
let reader: BoardReader | undefined;
const answers = new LruCache<PreparedJson>(1_000);

export function getBoardReader(): BoardReader {
  reader ??= new BoardReader(getDb());
  return reader;
}

/**
 * Answers are a pure function of (ranking run, request), so a serialised answer is reused until
 * the next run. A hit costs a map lookup: no database read, no JSON.stringify, no hashing.
 */
export async function cachedAnswer<T>(requestKey: string, build: (manifest: Manifest) => Promise<T>): Promise<PreparedJson<T>> {
  const manifest = await getBoardReader().getManifest();
  const key = `${manifest.runId}|${requestKey}`;
  // Request keys start with the handler's name, so a hit under this key was built by this `build`.
  const hit = answers.get(key) as PreparedJson<T> | undefined;
  if (hit) return hit;
  const prepared = PreparedJson.of(await build(manifest));
  answers.set(key, prepared);
  return prepared;
}

/**
 * Cache key for a parsed query. The route's schema builds its output in the schema's own key
 * order whatever order the caller sent, so the serialised output is stable; absent parameters
 * (undefined) are left out by JSON.stringify.
 */
export function queryKey(name: string, query: object): string {
  return `${name}?${JSON.stringify(query)}`;
}
