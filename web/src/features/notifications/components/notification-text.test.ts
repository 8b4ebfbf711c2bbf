import { describe, expect, it } from 'vitest';
import type { Notification } from '../api/notification-keys';
import { describeActors, describeNotification, notificationHref } from './notification-text';

const ana = { userId: 'u-ana', username: 'ana', name: 'Ana Lima', imageUrl: null };
const bo = { userId: 'u-bo', username: 'bo', name: '', imageUrl: null };

const notification = (overrides: Partial<Notification>): Notification => ({
  id: 'n1',
  kind: 'story-liked',
  app: 'toppubs',
  object: { type: 'story', id: 'story1', title: 'Shipping daily', detail: null },
  actors: [ana],
  actorCount: 1,
  seen: false,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

describe('describeActors', () => {
  it('names one or two people, and counts the rest', () => {
    expect(describeActors([ana], 1)).toBe('Ana Lima');
    expect(describeActors([ana, bo], 2)).toBe('Ana Lima and @bo');
    expect(describeActors([ana, bo], 5)).toBe('Ana Lima and 4 others');
    expect(describeActors([ana], 2)).toBe('Ana Lima and 1 other');
  });

  it('says someone when every actor has since deleted their account', () => {
    expect(describeActors([], 1)).toBe('Someone');
    expect(describeActors([], 3)).toBe('3 people');
  });
});

describe('describeNotification', () => {
  it("says who sent files through the reader's file request, with their note, and leads to the transfer", () => {
    // Prepare
    const upload = notification({
      kind: 'transfer-request-upload',
      app: 'transfer',
      actors: [],
      object: { type: 'transfer', id: 't1', title: 'Wedding photos', detail: 'Bo sent 2 files, noting “From the ceremony”' },
    });

    // Assess
    expect(describeNotification(upload)).toBe(
      'Through your request “Wedding photos”: Bo sent 2 files, noting “From the ceremony”',
    );
    expect(notificationHref(upload)).toBe('/transfers/t1');
  });

  it('says what happened, by kind', () => {
    expect(describeNotification(notification({ actorCount: 3, actors: [ana, bo] }))).toBe(
      'Ana Lima and 2 others liked your story “Shipping daily”',
    );
    expect(
      describeNotification(
        notification({ kind: 'user-followed', object: { type: 'user', id: 'me', title: null, detail: null } }),
      ),
    ).toBe('Ana Lima started following you');
    expect(describeNotification(notification({ kind: 'story-author-claimed' }))).toBe(
      'Ana Lima says they wrote “Shipping daily”',
    );
    expect(describeNotification(notification({ kind: 'story-review-accepted' }))).toBe(
      'Your story “Shipping daily” was accepted by the editors',
    );
    expect(
      describeNotification(
        notification({
          kind: 'publication-rose',
          actors: [],
          object: {
            type: 'publication',
            id: 'ux-collective',
            title: 'UX Collective',
            detail: 'climbed 12 places to #34 on Most followed',
          },
        }),
      ),
    ).toBe('UX Collective climbed 12 places to #34 on Most followed');
  });

  it("leads to the follower's profile, the story, its comments, or the publication's page", () => {
    expect(
      notificationHref(notification({ kind: 'user-followed', object: { type: 'user', id: 'me', title: null, detail: null } })),
    ).toBe('/@ana');
    expect(notificationHref(notification({}))).toBe('/api/i/stories/story/story1/go');
    expect(notificationHref(notification({ kind: 'story-commented' }))).toBe('/stories/story1#comments');
    expect(notificationHref(notification({ kind: 'comment-replied' }))).toBe('/stories/story1#comments');
    expect(
      notificationHref(
        notification({
          kind: 'publication-rose',
          object: { type: 'publication', id: 'ux-collective', title: null, detail: null },
        }),
      ),
    ).toBe('/pub/ux-collective');
  });
});
