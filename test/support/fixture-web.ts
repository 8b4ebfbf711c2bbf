import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureAnswer {
  status: number;
  body?: string;
  /** For a redirect: a path on the fixture server, host first, as every address there is. */
  location?: string;
}

export interface FixtureWeb {
  /** What SOURCE_FIXTURE_ORIGIN is set to. */
  origin: string;
  /** The paths asked for, in order, with the User-Agent each was asked with. */
  requests: { path: string; userAgent: string | undefined }[];
  /** The answers by path (`/<host><path>?<query>`); the test may change them. Anything else is a 404. */
  answers: Record<string, FixtureAnswer>;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 that answers for the web when publication sources are read through
 * SOURCE_FIXTURE_ORIGIN (functions/ranking/lib/sources/source-fetch.ts): the real fetch path,
 * offline.
 */
export async function startFixtureWeb(answers: Record<string, FixtureAnswer>): Promise<FixtureWeb> {
  const requests: FixtureWeb['requests'] = [];
  const web = { requests, answers } as FixtureWeb;
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', userAgent: request.headers['user-agent'] });
    const answer = web.answers[request.url ?? ''] ?? { status: 404 };
    response.writeHead(answer.status, answer.location ? { location: answer.location } : {});
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  web.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  web.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return web;
}

/** A minimal RSS feed of one post: a publication without a follower count. */
export function rssFeed(title: string, site: string, postedAt: Date): string {
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title><link>${site}</link><description>Notes</description><item><title>A post</title><pubDate>${postedAt.toUTCString()}</pubDate></item></channel></rss>`;
}
