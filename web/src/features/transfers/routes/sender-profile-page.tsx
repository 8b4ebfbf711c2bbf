import { useId } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { buttonClassName } from '../../../components/button';
import { UserAvatar } from '../../../components/user-avatar';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useSenderProfile } from '../api/get-sender-profile';
import pageStyles from '../../../components/page.module.css';
import styles from '../components/transfers.module.css';

/** The longest user id the API accepts; a longer one names nobody. */
const MAX_USER_ID_LENGTH = 100;
const AVATAR_SIZE = 64;

interface Person {
  userId: string;
  username: string;
  name: string;
  imageUrl: string | null;
}

/** "March 2024". */
function formatMonthYear(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' }).format(date);
}

function SenderCard({ person, memberSince }: { person: Person; memberSince: string }) {
  const displayName = person.name || `@${person.username}`;
  const nameId = useId();
  return (
    <section className={styles.card} aria-labelledby={nameId}>
      <div className={styles.header}>
        <UserAvatar user={person} size={AVATAR_SIZE} />
        <div className={pageStyles.section} style={{ flex: '1 1 12rem', gap: 'var(--space-1)' }}>
          <h1 id={nameId} className={styles.title}>
            {displayName}
          </h1>
          <p className={styles.lede} style={{ overflowWrap: 'anywhere' }}>
            <Link to={`/@${encodeURIComponent(person.username)}`}>@{person.username}</Link>
          </p>
        </div>
      </div>
      <p className={styles.lede}>
        Sending files with us since <time dateTime={memberSince}>{formatMonthYear(memberSince)}</time>
      </p>
      <div className={pageStyles.actions}>
        <Link to="/transfer" className={buttonClassName()}>
          Send files
        </Link>
      </div>
    </section>
  );
}

/**
 * /transfers/people/:userId: a sender's public card in the transfer app (name, username,
 * picture, since when they send files), opened from a package's sender. Anyone may see it.
 */
export function SenderProfilePage() {
  const { userId = '' } = useParams();
  const valid = userId.length > 0 && userId.length <= MAX_USER_ID_LENGTH;
  const query = useSenderProfile(userId, valid);

  let content;
  let seo: Parameters<typeof PageMeta>[0]['seo'] = { title: `Sender · ${APP_NAME}` };
  if (query.data) {
    seo = query.data.seo;
    content = <SenderCard person={query.data.person} memberSince={query.data.memberSince} />;
  } else if (!valid || (query.error instanceof ApiError && query.error.status === 404)) {
    seo = { title: `Person not found · ${APP_NAME}` };
    content = (
      <NotFoundState title="There is no such person.">
        <StateLinks>
          <Link to="/transfer">Send files</Link>
        </StateLinks>
      </NotFoundState>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="This person could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    content = <PageSpinner label="Loading the sender" />;
  }

  return (
    <>
      <PageMeta seo={seo} />
      <div className={styles.page}>{content}</div>
    </>
  );
}
