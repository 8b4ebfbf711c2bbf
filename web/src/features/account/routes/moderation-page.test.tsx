import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@shared/routes';
import { jane, renderShell } from '../../../test/render-shell';
import { type StubAnswer, stubRoute, stubRoutes } from '../../../test/stub-routes';
import type { OpenReport } from '../api/account-keys';
import { ModerationPage } from './moderation-page';

const moderator = { ...jane, isSuperUser: true };

const report = (objectType: OpenReport['objectType'], objectId: string, overrides: Partial<OpenReport> = {}): OpenReport => ({
  objectType,
  objectId,
  reason: 'spam',
  details: '',
  reporter: { userId: 'u-bo', username: 'bo' },
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
  ...overrides,
});

function renderModeration(options: { user?: typeof jane; resolve?: StubAnswer<typeof routes.resolveReports> } = {}) {
  const api = stubRoutes(
    stubRoute(routes.listOpenReports, {
      body: {
        items: [
          report('story', 'AbC123', { details: 'Affiliate links only' }),
          report('user', 'u-spammer'),
          report('story', 'AbC123', { reason: 'copyright', reporter: null }),
          report('comment', 'AbC123.00abc123xyzQ', { reason: 'abuse', details: 'Insults' }),
        ],
        nextCursor: null,
      },
    }),
    stubRoute(routes.resolveReports, options.resolve ?? { body: { resolved: 2 } }),
    stubRoute(routes.removeStoryComment, (request) => ({
      body: {
        comment: {
          id: request.params.commentId ?? '',
          storyId: request.params.id ?? '',
          parentId: null,
          depth: 0,
          state: 'removed' as const,
          author: null,
          body: null,
          html: '<p>[removed]</p>',
          createdAt: '2026-11-24T08:00:00.000Z',
          editedAt: null,
          replyCount: 0,
          editableUntil: null,
        },
        commentCount: 0,
      },
    })),
  );
  renderShell({
    path: '/moderation',
    user: options.user ?? moderator,
    pages: [{ path: 'moderation', Component: ModerationPage }],
  });
  return { api, user: userEvent.setup(), page: within(screen.getByRole('main')) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ModerationPage', () => {
  it('shows each reported object once with all its reports; dismissing resolves them all and takes it off', async () => {
    // Prepare
    const { api, user, page } = renderModeration();
    const list = await page.findByRole('list', { name: 'Reported objects' });
    const story = within(list).getByRole('listitem', { name: 'story AbC123' });

    // Assess
    expect(within(list).getAllByRole('listitem', { name: /^(story|user|comment) / })).toHaveLength(3);
    expect(story).toHaveTextContent('2 reports');
    expect(story).toHaveTextContent('Spam: Affiliate links only');
    expect(story).toHaveTextContent('Copyright');
    expect(story).toHaveTextContent('a deleted account');
    expect(within(story).getByRole('link', { name: '@bo' })).toHaveAttribute('href', '/@bo');

    // Act
    await user.click(within(story).getByRole('button', { name: 'Dismiss the reports on story AbC123' }));

    // Assess
    await vi.waitFor(() => expect(within(list).queryByRole('listitem', { name: 'story AbC123' })).not.toBeInTheDocument());
    expect(api.calls(routes.resolveReports)[0]?.params).toEqual({
      objectType: 'story',
      objectId: 'AbC123',
      resolution: 'dismissed',
    });
  });

  it('records acting on a report, and keeps the object when that fails', async () => {
    // Prepare
    const { api, user, page } = renderModeration({
      resolve: { status: 503, body: { message: 'The database is busy.', code: 'SERVICE_UNAVAILABLE' } },
    });
    const list = await page.findByRole('list', { name: 'Reported objects' });
    const spammer = within(list).getByRole('listitem', { name: 'user u-spammer' });

    // Act
    await user.click(within(spammer).getByRole('button', { name: 'Mark the reports on user u-spammer acted on' }));

    // Assess
    expect(await within(spammer).findByRole('alert')).toHaveTextContent('The database is busy.');
    expect(api.calls(routes.resolveReports)[0]?.params).toEqual({
      objectType: 'user',
      objectId: 'u-spammer',
      resolution: 'actioned',
    });
  });

  it('removes a reported comment through the removal route, links to it in its thread, and takes its reports off', async () => {
    // Prepare
    const { api, user, page } = renderModeration();
    const list = await page.findByRole('list', { name: 'Reported objects' });
    const comment = within(list).getByRole('listitem', { name: 'comment AbC123.00abc123xyzQ' });
    expect(comment).toHaveTextContent('Abuse: Insults');
    expect(within(comment).getByRole('link', { name: 'Read it in its thread' })).toHaveAttribute(
      'href',
      '/stories/AbC123#comment-00abc123xyzQ',
    );
    // Only a comment can be removed from here
    const story = within(list).getByRole('listitem', { name: 'story AbC123' });
    expect(within(story).queryByRole('button', { name: /^Remove comment/ })).not.toBeInTheDocument();

    // Act
    await user.click(within(comment).getByRole('button', { name: 'Remove comment AbC123.00abc123xyzQ' }));

    // Assess
    await vi.waitFor(() =>
      expect(within(list).queryByRole('listitem', { name: 'comment AbC123.00abc123xyzQ' })).not.toBeInTheDocument(),
    );
    expect(api.calls(routes.removeStoryComment)[0]?.params).toEqual({ id: 'AbC123', commentId: '00abc123xyzQ' });
    expect(api.calls(routes.resolveReports)).toHaveLength(0);
  });

  it('tells someone who is not a moderator that the page is not for them, and asks for nothing', async () => {
    // Prepare
    const { api, page } = renderModeration({ user: jane });

    // Assess
    expect(await page.findByRole('heading', { name: 'This page is for moderators' })).toBeInTheDocument();
    expect(api.calls(routes.listOpenReports)).toHaveLength(0);
  });
});
