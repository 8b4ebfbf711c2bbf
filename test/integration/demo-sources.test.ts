import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { DEMO_SOURCE_ADDRESSES } from '../../infra/local/fixture-web';
import { apiSuite } from '../support/api-suite';
import { expectOk } from '../support/api-client';

// As `LOCAL_SOURCES=fixtures npm start` runs: publication sources read from the runtime's own fixture web.
const suite = apiSuite({ demoSourceFixtures: true });

describe('the demo fixture web of npm start', () => {
  it('previews every demo address offline (its feed without a follower count), and a suggestion above the default floor reaches the boards', async () => {
    // Prepare
    const [reader, superuser] = await Promise.all([suite.api.signIn('reader'), suite.api.signIn('editor', { superuser: true })]);

    // Act
    const previews = [];
    for (const url of DEMO_SOURCE_ADDRESSES)
      previews.push(await suite.api.call(routes.previewSuggestion, { body: { url }, as: reader }));
    const suggested = await suite.api.call(routes.suggestPublication, { body: { url: DEMO_SOURCE_ADDRESSES[0] }, as: reader });
    expectOk(await suite.api.call(routes.runRanking, { as: superuser }));
    const board = await suite.api.call(routes.loadPubs, { query: { limit: 5 } });

    // Assess
    expect(
      previews.map((answer) =>
        answer.ok
          ? [answer.body.publication.name, answer.body.publication.followers, answer.body.wouldBeAccepted]
          : [answer.status, answer.body.message],
      ),
    ).toEqual([
      ['UX Collective', 478_213, true],
      ['Field Notes on Tea', 18_342, true],
      ['Bread Letters', 420, false],
      ['Pulse & Kitchen — notes', null, false],
    ]);
    expectOk(suggested, 201);
    expect(suggested.body.suggestion).toMatchObject({ status: 'accepted', slug: 'ux-collective' });
    expectOk(board);
    expect(board.body.items.map((item) => item.name)).toEqual(['UX Collective']);
  });
});
