import { useState } from 'react';
import { Button } from '../../../components/button';
import { useCurrentUser } from '../../../lib/current-user';
import { useRequireLogin } from '../../../lib/require-login';
import { toast } from '../../../lib/toast';
import type { PublicUser } from '../api/account-keys';
import { useBlockUser } from '../api/block-user';
import { useIsFollowing } from '../api/filter-following-ids';
import { useFollowUser } from '../api/follow-user';
import { useAccount } from '../api/get-account';
import { useUnblockUser } from '../api/unblock-user';
import styles from './account.module.css';
import { ReportForm } from './report-form';

/** Follow, Block/Unblock and Report for someone else's profile; anonymous visitors are asked to log in. */
export function ProfileActions({ profile }: { profile: PublicUser }) {
  const { user, isPending: sessionPending } = useCurrentUser();
  const requireLogin = useRequireLogin();
  const account = useAccount(user?.userId);
  const block = useBlockUser();
  const unblock = useUnblockUser();
  const [reporting, setReporting] = useState(false);
  const following = useIsFollowing(profile.userId, user !== null);
  const follow = useFollowUser(profile);
  const isFollowing = following.data ?? false;

  const toggleFollow = () =>
    requireLogin(() => {
      follow.mutate(
        { userId: profile.userId, following: !isFollowing },
        { onError: (error) => toast.error(`${isFollowing ? 'Unfollowing' : 'Following'} failed: ${error.message}`) },
      );
    });

  const isBlocked = account.data?.blockedUsers.some((blocked) => blocked.userId === profile.userId) ?? false;
  const busy = block.isPending || unblock.isPending || sessionPending || (user !== null && account.isPending);

  const toggleBlock = () =>
    requireLogin(() => {
      if (isBlocked) {
        unblock.mutate(profile.userId, {
          onSuccess: () => toast.success(`Unblocked @${profile.username}`),
          onError: (error) => toast.error(`Unblocking failed: ${error.message}`),
        });
      } else {
        block.mutate(profile.userId, {
          onSuccess: () => toast.success(`Blocked @${profile.username}`),
          onError: (error) => toast.error(`Blocking failed: ${error.message}`),
        });
      }
    });

  return (
    <>
      <div className={styles.actions}>
        <Button
          variant={isFollowing ? 'secondary' : 'primary'}
          onClick={toggleFollow}
          aria-pressed={isFollowing}
          disabled={sessionPending || (user !== null && following.isPending)}
        >
          {isFollowing ? 'Following' : 'Follow'}
        </Button>
        <Button variant="secondary" onClick={toggleBlock} disabled={busy} aria-busy={block.isPending || unblock.isPending}>
          {isBlocked ? 'Unblock' : 'Block'}
        </Button>
        <Button variant="ghost" onClick={() => requireLogin(() => setReporting(true))} aria-expanded={reporting}>
          Report
        </Button>
      </div>
      {reporting && user ? (
        <ReportForm userId={profile.userId} username={profile.username} onDone={() => setReporting(false)} />
      ) : null}
    </>
  );
}
