import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, monthName, monthOfDate } from '../../shared/archive-months';
import { routes } from '../../shared/routes';
import { getDocumentClient } from '../../functions/lib/db/client';
import { getDb } from '../../functions/lib/db/service';
import { currentFunction } from '../../functions/lib/function-environment';
import { archiveMonth } from '../../functions/ranking/lib/month-archive';
import { type ApiClient, createApiClient, expectError, expectOk } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

/** Enough for a few topics and full boards of the small kind; the seed's history reaches back 90 days. */
const PUBLICATIONS = 60;

let runtime: TestRuntime;
let api: ApiClient;
/** Table commands sent, by the function that sent them ('-' outside any function: the test itself). */
const commands: { functionName: string; command: string }[] = [];

beforeAll(async () => {
  // The start seeds 90 days of history and archives the closed months it covers, as `npm start` does.
  runtime = await startTestRuntime({ seedPublications: PUBLICATIONS, archive: true });
  api = createApiClient(runtime);
  getDocumentClient().middlewareStack.add(
    (next, context) => async (args) => {
      commands.push({ functionName: currentFunction()?.name ?? '-', command: context.commandName ?? '' });
      return next(args);
    },
    { step: 'initialize', name: 'monthArchiveCommandCounter' },
  );
});

afterAll(async () => {
  await runtime?.close();
});

/** The last closed month: the seed's history covers all of it. */
const lastMonth = () => addMonths(monthOfDate(new Date()), -1);
const monthParams = (month: string) => ({ year: month.slice(0, 4), month: month.slice(5, 7) });
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

describe('the monthly archive of the rankings', () => {
  it('lists the closed months the seeded history covers, newest first', async () => {
    // Act
    const answer = await api.call(routes.listArchivedMonths);

    // Assess
    expectOk(answer);
    const months = answer.body.months.map((entry) => entry.month);
    expect(months[0]).toBe(lastMonth());
    expect(months).toContain(addMonths(lastMonth(), -1));
    expect(answer.body.months[0]?.publicationCount).toBe(PUBLICATIONS);
  });

  it("answers a month's three boards from one table read", async () => {
    // Prepare
    const month = lastMonth();
    commands.length = 0;

    // Act
    const answer = await api.call(routes.showArchiveMonth, { params: monthParams(month) });

    // Assess
    expectOk(answer);
    expect(commands.filter((sent) => sent.functionName === 'showArchiveMonth').map((sent) => sent.command)).toEqual([
      'GetItemCommand',
    ]);
    const { boards, topics } = answer.body;
    expect(boards.followers.length).toBeGreaterThan(0);
    expect(boards.followers.map((row) => row.rank)).toEqual(boards.followers.map((_, index) => index + 1));
    const followers = boards.followers.map((row) => row.followers ?? 0);
    expect(followers).toEqual([...followers].sort((a, b) => b - a));
    expect(boards.growth.every((row) => (row.gained ?? 0) > 0)).toBe(true);
    expect(boards.activity.length).toBeGreaterThan(0);
    expect(answer.body.seo.title).toContain(monthName(month));
    expect(topics.length).toBeGreaterThan(0);
  });

  it("answers one topic's boards, its rows all of that topic, from one read too", async () => {
    // Prepare
    const month = lastMonth();
    const overall = await api.call(routes.showArchiveMonth, { params: monthParams(month) });
    expectOk(overall);
    const topic = overall.body.topics[0];
    expect(topic).toBeDefined();
    commands.length = 0;

    // Act: the tag as a person might type it.
    const answer = await api.call(routes.showArchiveMonth, {
      params: monthParams(month),
      query: { topic: topic?.tag.toUpperCase() ?? '' },
    });

    // Assess
    expectOk(answer);
    expect(commands.filter((sent) => sent.functionName === 'showArchiveMonth')).toHaveLength(1);
    expect(answer.body.topic).toEqual(topic);
    expect(answer.body.publicationCount).toBe(topic?.publicationCount);
    expect(answer.body.boards.followers.length).toBeGreaterThan(0);
  });

  it('says plainly that a month not over yet, one before any history, or a topic absent from it has no archive', async () => {
    // Act
    const current = await api.call(routes.showArchiveMonth, { params: monthParams(monthOfDate(new Date())) });
    const future = await api.call(routes.showArchiveMonth, { params: monthParams(addMonths(monthOfDate(new Date()), 5)) });
    const beforeHistory = await api.call(routes.showArchiveMonth, { params: { year: '2001', month: '03' } });
    const absentTopic = await api.call(routes.showArchiveMonth, {
      params: monthParams(lastMonth()),
      query: { topic: 'no-such-topic' },
    });
    const badMonth = await api.call(routes.showArchiveMonth, { params: { year: '2025', month: '13' } });

    // Assess
    expectError(current, 404, 'NOT_FOUND');
    expect(current.body.message).toMatch(/is not over yet/);
    expectError(future, 404, 'NOT_FOUND');
    expectError(beforeHistory, 404, 'NOT_FOUND');
    expect(beforeHistory.body.message).toBe(
      'The rankings of March 2001 are not archived: only months with ranking history are, once they close.',
    );
    expectError(absentTopic, 404, 'NOT_FOUND');
    expect(absentTopic.body.message).toMatch(/topic 'no-such-topic'/);
    expectError(badMonth, 400);
  });

  it('links a publication that led a board to the month it led it in', async () => {
    // Prepare
    const month = lastMonth();
    const archive = await api.call(routes.showArchiveMonth, { params: monthParams(month) });
    expectOk(archive);
    const leader = archive.body.boards.followers[0];

    // Act
    const page = await api.call(routes.getPublication, { params: { slug: leader?.slug ?? '' } });

    // Assess
    expectOk(page);
    const linked = page.body.archiveMonths.find((entry) => entry.month === month);
    expect(linked?.placements).toContainEqual({ topic: null, board: 'followers', rank: 1 });
    expect(page.body.archiveMonths.map((entry) => entry.month)).toEqual(
      [...page.body.archiveMonths.map((entry) => entry.month)].sort().reverse(),
    );
  });

  it('archives a month once: a second run writes nothing, and a forced one keeps what is stored', async () => {
    // Prepare
    const db = getDb();
    const month = lastMonth();
    const before = await db.entities.rankingArchive.get({ month, scope: 'overall' }).go();
    const listed = await api.call(routes.listArchivedMonths);
    expectOk(listed);
    commands.length = 0;

    // Act: the scheduled job again, then the month's archiving itself, as a run cut short before it listed the month would.
    await runtime.runJob('archive-rankings');
    const jobCommands = commands.filter((sent) => sent.functionName === 'archive-rankings').map((sent) => sent.command);
    const forced = await archiveMonth(db, month, new Date());

    // Assess
    expect(jobCommands.some((command) => WRITES.has(command))).toBe(false);
    expect(jobCommands).toEqual(['QueryCommand']);
    expect(forced).toMatchObject({ archived: true, scopesKept: forced.scopes });
    const after = await db.entities.rankingArchive.get({ month, scope: 'overall' }).go();
    expect(after.data).toEqual(before.data);
    const relisted = await api.call(routes.listArchivedMonths);
    expectOk(relisted);
    expect(relisted.body.months).toEqual(listed.body.months);
  });

  it("serves a month's page to crawlers as HTML, and lists it in the sitemap", async () => {
    // Prepare
    const month = lastMonth();
    const archive = await api.call(routes.showArchiveMonth, { params: monthParams(month) });
    expectOk(archive);
    const path = `/archive/${month.slice(0, 4)}/${month.slice(5, 7)}`;

    // Act
    const [page, missing, sitemap] = await Promise.all([
      fetch(`${runtime.url}${path}`),
      fetch(`${runtime.url}/archive/2001/03`),
      fetch(`${runtime.url}/sitemap.xml`),
    ]);

    // Assess
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(`<h1>Publications of ${monthName(month)}</h1>`);
    expect(html).toContain(`rel="canonical" href="${runtime.url}${path}"`);
    expect(html).toContain(archive.body.boards.followers[0]?.name.replace(/&/g, '&amp;') ?? 'no leader');
    expect(missing.status).toBe(404);
    const locations = await sitemap.text();
    expect(locations).toContain(`${path}</loc>`);
    expect(locations).toContain('/archive</loc>');
  });
});
