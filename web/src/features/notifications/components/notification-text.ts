import type { Notification } from '../api/notification-keys';

const displayName = (actor: Notification['actors'][number]) => actor.name || `@${actor.username}`;

/** "Ana", "Ana and Bo", "Ana and 4 others": who is behind a notification, newest first. */
export function describeActors(actors: Notification['actors'], actorCount: number): string {
  const [first, second] = actors;
  if (!first) return actorCount > 1 ? `${actorCount} people` : 'Someone';
  if (actorCount <= 1) return displayName(first);
  if (actorCount === 2 && second) return `${displayName(first)} and ${displayName(second)}`;
  const others = actorCount - 1;
  return `${displayName(first)} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** The sentence a notification shows. */
export function describeNotification(notification: Notification): string {
  const who = describeActors(notification.actors, notification.actorCount);
  const title = notification.object.title ? `“${notification.object.title}”` : null;
  const several = notification.actorCount > 1;
  switch (notification.kind) {
    case 'story-liked':
      return `${who} liked your story${title ? ` ${title}` : ''}`;
    case 'user-followed':
      return `${who} started following you`;
    case 'story-author-claimed':
      return `${who} ${several ? 'say they' : 'says they'} wrote ${title ?? 'a story you shared'}`;
    case 'story-review-accepted':
      return title ? `Your story ${title} was accepted by the editors` : 'Your story was accepted by the editors';
    case 'publication-rose':
      return `${notification.object.title ?? 'A publication you follow'} ${notification.object.detail ?? 'moved up the rankings'}`;
    case 'transfer-received':
      return `${who} sent you ${title ?? 'files'}`;
    case 'transfer-downloaded':
      return `${who} downloaded ${title ?? 'the files you sent'}`;
    case 'transfer-request-upload':
      return `${title ? `Through your request ${title}: ` : ''}${notification.object.detail ?? 'Someone sent you files'}`;
    case 'transfer-download-limit-reached':
      return `${title ?? 'Your transfer'} reached its download limit`;
    case 'subscription-payment-failed':
      return `The payment for ${notification.object.title ?? 'your subscription'} did not go through: update your card to keep it`;
    case 'subscription-payment-recovered':
      return `The payment for ${notification.object.title ?? 'your subscription'} went through: it is active again`;
    case 'store-order-confirmed':
      return `Your order${notification.object.title ? ` at ${notification.object.title}` : ''} is paid`;
    case 'store-sale':
      return `${who} bought ${title ?? 'from your shop'}`;
    case 'store-refund':
      return `${notification.object.title ?? 'A shop'} refunded ${notification.object.detail ?? 'your order'}`;
    case 'subscription-refunded':
      return `${notification.object.detail ?? 'A payment'} of ${notification.object.title ?? 'your subscription'} was refunded`;
    case 'story-commented':
      return `${who} commented on your story${title ? ` ${title}` : ''}`;
    case 'comment-replied':
      return `${who} replied to your comment${title ? ` on ${title}` : ''}`;
  }
}

/** Where a notification leads: the follower's profile, the story itself, or its comments. */
export function notificationHref(notification: Notification): string {
  if (notification.object.type === 'subscription') return notification.app === 'store' ? '/store/orders' : '/subscription';
  if (notification.object.type === 'store-order') return notification.kind === 'store-sale' ? '/merchant' : '/store/orders';
  if (notification.object.type === 'publication') return `/pub/${encodeURIComponent(notification.object.id)}`;
  if (notification.object.type === 'transfer') {
    const id = encodeURIComponent(notification.object.id);
    return notification.kind === 'transfer-received' ? `/transfer/${id}/package` : `/transfers/${id}`;
  }
  if (notification.object.type === 'user') {
    const follower = notification.actors[0];
    return follower ? `/@${follower.username}` : '/me';
  }
  // A comment's notification leads to the discussion, on the story's own page.
  if (notification.kind === 'story-commented' || notification.kind === 'comment-replied') {
    return `/stories/${encodeURIComponent(notification.object.id)}#comments`;
  }
  return `/api/i/stories/story/${encodeURIComponent(notification.object.id)}/go`;
}
