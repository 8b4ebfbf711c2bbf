import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_ALERTS } from '../../shared/stories/sharing-rules';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.close();
});

const checkUrl = (url?: string) =>
  runtime.get(`/api/i/stories/url/check${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`);

describe('GET /api/i/stories/url/check', () => {
  it('answers 200 with the normalised url for a shareable story, without signing in', async () => {
    // Act
    const answer = await checkUrl('https://Blog.Example.org/posts/hello/?utm_source=news#top');

    // Assess
    expect(answer.status).toBe(200);
    await expect(answer.json()).resolves.toEqual({ ok: true, url: 'https://blog.example.org/posts/hello' });
  });

  it('answers 400 INVALID_URL with the alert the share form shows', async () => {
    // Act
    const answer = await checkUrl('https://twitter.com/ana/status/1');

    // Assess
    expect(answer.status).toBe(400);
    await expect(answer.json()).resolves.toEqual({
      code: 'INVALID_URL',
      message: 'Invalid url',
      alert: SHARE_ALERTS.storiesOnly,
    });
  });

  it("refuses the deployment's own hosts, read from its configuration", async () => {
    // Prepare: the runtime serves the web app on localhost and 127.0.0.1 (ALLOWED_ORIGINS)
    const ownPage = `${runtime.url.replace('localhost', '127.0.0.1')}/about`;

    // Act
    const answer = await checkUrl(ownPage);

    // Assess
    expect(answer.status).toBe(400);
    await expect(answer.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.externalOnly });
  });

  it('answers a missing or malformed url with the same INVALID_URL alert', async () => {
    // Act
    const missing = await checkUrl();
    const malformed = await checkUrl('not a url');

    // Assess
    expect(missing.status).toBe(400);
    await expect(missing.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.invalid });
    expect(malformed.status).toBe(400);
    await expect(malformed.json()).resolves.toMatchObject({ code: 'INVALID_URL', alert: SHARE_ALERTS.invalid });
  });
});
