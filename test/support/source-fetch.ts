import { UnexpectedStatus } from '../../functions/lib/http/safe-fetch';
import type { SourceFetch } from '../../functions/ranking/lib/sources/source-adapter';

export { sourceFixture } from '../../infra/local/fixture-web';

export type FixtureAnswer = { body: string; url?: string } | { status: number; retryAfterSeconds?: number } | Error;

/**
 * A SourceFetch answering each address from a table the test may change between calls (a
 * status throws as the safe fetcher does; an address not in it is a 404), recording the calls.
 */
export function fixtureFetch(answers: Record<string, FixtureAnswer>) {
  const calls: { url: string; accept: string }[] = [];
  const fetch: SourceFetch = async (url, { accept }) => {
    calls.push({ url, accept });
    const answer = answers[url];
    if (!answer) throw new UnexpectedStatus(404, undefined);
    if (answer instanceof Error) throw answer;
    if ('status' in answer) throw new UnexpectedStatus(answer.status, answer.retryAfterSeconds);
    return { url: answer.url ?? url, contentType: 'application/octet-stream', body: answer.body };
  };
  return { fetch, calls, answers };
}
