import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { feedLinks, userFeedPath, userFeedTitle } from '@shared/feeds';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import type { PublicUser } from '../api/account-keys';
import { isNotFound, usePublicUser } from '../api/get-user-by-id-or-username';
import styles from '../components/account.module.css';
import { formatMonthYear } from '../components/format';
import { ProfileActions } from '../components/profile-actions';
import { UserAvatar } from '../../../components/user-avatar';

/** The username in a `/@jane` segment, or null when the segment is not a profile address. */
export function usernameFromHandle(handle: string | undefined): string | null {
  if (!handle?.startsWith('@')) return null;
  const username = handle.slice(1).trim();
  return username || null;
}

/** /@{username} : a user's public profile. */
/**
 * `stories` renders what the person shared (the stories feature's list): the app composes it in,
 * since one feature never imports another.
 */
export function ProfilePage({ stories }: { stories?: (user: PublicUser) => ReactNode } = {}) {
  const { handle } = useParams();
  const username = usernameFromHandle(handle) ?? '';
  const profile = usePublicUser(username);

  let content;
  if (!username || (profile.isError && isNotFound(profile.error))) {
    content = (
      <>
        <PageMeta seo={{ title: `Nobody called @${username} · ${APP_NAME}` }} />
        <EmptyState level={1} icon="@" title={`There is no one called @${username}`}>
          <p>The username may be mistyped, or the account was deleted.</p>
          <p>
            <Link to="/" className={buttonClassName()}>
              Back to the rankings
            </Link>
          </p>
        </EmptyState>
      </>
    );
  } else if (profile.isPending) {
    content = <PageSpinner label={`Loading @${username}`} />;
  } else if (profile.isError) {
    content = (
      <ErrorState
        title={`@${username} could not be loaded`}
        error={profile.error}
        onRetry={() => void profile.refetch()}
        retrying={profile.isFetching}
      />
    );
  } else {
    content = (
      <>
        <Profile user={profile.data} />
        {stories?.(profile.data)}
      </>
    );
  }

  return <div className={styles.page}>{content}</div>;
}

function Profile({ user }: { user: PublicUser }) {
  const { user: visitor } = useCurrentUser();
  const isSelf = visitor?.userId === user.userId;
  const displayName = user.name || user.username;
  return (
    <>
      <PageMeta
        seo={{ title: `${displayName} (@${user.username}) · ${APP_NAME}` }}
        feeds={feedLinks(userFeedTitle(user.name || `@${user.username}`, APP_NAME), (format) =>
          userFeedPath(user.username, format),
        )}
      />
      <header className={styles.profileHeader}>
        <UserAvatar user={user} size={96} />
        <div className={styles.profileText}>
          <h1 className={styles.title}>{displayName}</h1>
          <p className={styles.handle}>@{user.username}</p>
          <ul className={styles.facts}>
            <li>
              Member since <time dateTime={user.createdAt}>{formatMonthYear(user.createdAt)}</time>
            </li>
            <li>
              {user.followerCount} {user.followerCount === 1 ? 'follower' : 'followers'} · {user.followingCount} following
            </li>
            {user.websiteUrl ? (
              <li>
                <a href={user.websiteUrl} rel="noopener nofollow" target="_blank">
                  {user.websiteUrl.replace(/^https?:\/\//, '').replace(/\/$/, '')}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </header>
      {isSelf ? (
        <Link to="/me" className={buttonClassName({ variant: 'secondary' })}>
          Edit your profile
        </Link>
      ) : (
        <ProfileActions profile={user} />
      )}
    </>
  );
}
