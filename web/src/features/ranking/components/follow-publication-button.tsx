import type { FollowedPublication } from '@shared/schemas/ranking';
import { Button } from '../../../components/button';
import { BellIcon } from '../../../components/icons';
import { useCurrentUser } from '../../../lib/current-user';
import { useRequireLogin } from '../../../lib/require-login';
import { toast } from '../../../lib/toast';
import { useFollowPublication } from '../api/follow-publication';
import { useFollowedPublications } from '../api/list-followed-publications';
import styles from './follow-publication-button.module.css';

export type FollowablePublication = Omit<FollowedPublication, 'followedAt'>;

/**
 * Follow or unfollow a publication. A visitor gets the login dialog (which promises exactly
 * this); a follower hears when it climbs. `compact` is the rows' icon button.
 */
export function FollowPublicationButton({
  publication,
  compact = false,
}: {
  publication: FollowablePublication;
  compact?: boolean;
}) {
  const { user } = useCurrentUser();
  const requireLogin = useRequireLogin();
  const followed = useFollowedPublications();
  const mutation = useFollowPublication(user?.userId ?? '');
  const following = followed.data?.items.some((item) => item.slug === publication.slug) ?? false;
  const unknown = user !== null && followed.isPending;

  const toggle = () =>
    requireLogin(() => {
      const next = !following;
      mutation.mutate(
        { slug: publication.slug, following: next, publication },
        {
          onSuccess: () =>
            toast.success(
              next
                ? `Following ${publication.name}. We’ll tell you when it climbs the ranks.`
                : `You no longer follow ${publication.name}.`,
            ),
          onError: (error) => toast.error(error.message || `Could not change whether you follow ${publication.name}.`),
        },
      );
    });

  if (compact) {
    return (
      <button
        type="button"
        className={styles.compact}
        aria-pressed={following}
        aria-label={`Follow ${publication.name}`}
        title={following ? `Following ${publication.name}` : `Follow ${publication.name}`}
        data-following={following ? '' : undefined}
        disabled={unknown}
        onClick={toggle}
      >
        <BellIcon fill={following ? 'currentColor' : 'none'} />
      </button>
    );
  }
  return (
    <Button variant={following ? 'secondary' : 'primary'} aria-pressed={following} disabled={unknown} onClick={toggle}>
      <BellIcon fill={following ? 'currentColor' : 'none'} />
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
