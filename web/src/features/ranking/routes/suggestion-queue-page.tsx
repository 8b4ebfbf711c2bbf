import { APP_NAME } from '@shared/constants';
import type { Suggestion } from '@shared/schemas/suggestions';
import { Button } from '../../../components/button';
import { MoreButton } from '../../../components/more-button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useDecideSuggestion } from '../api/decide-suggestion';
import { useSuggestionQueue } from '../api/list-suggestion-queue';
import { ImportSources } from '../components/import-sources';
import { SourcesNeedingAttention } from '../components/sources-needing-attention';
import { SuggestedPublicationCard } from '../components/suggested-publication';
import styles from '../components/suggestion.module.css';
import { BOARD_NAMES } from '../lib/board-names';
import { formatRelative } from '../lib/format';

/** /suggestions/review : the publications readers suggested that wait for a superuser, oldest first. */
export function SuggestionQueuePage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const isModerator = user?.isSuperUser === true;
  const queue = useSuggestionQueue(isModerator);

  let content;
  if (userPending) {
    content = <PageSpinner label="Loading the suggestions" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to review suggestions">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (!isModerator) {
    content = (
      <EmptyState title="This page is for the moderators">
        Only the platform's moderators review suggested publications.
      </EmptyState>
    );
  } else if (queue.isPending) {
    content = <PageSpinner label="Loading the suggestions" />;
  } else if (queue.isError) {
    content = <ErrorState title="The suggestions could not be loaded" error={queue.error} onRetry={() => void queue.refetch()} />;
  } else {
    const suggestions = queue.data.pages.flatMap((page) => page.items);
    content =
      suggestions.length === 0 ? (
        <EmptyState title="Nothing to review">
          Publications readers suggest below the follower floor, and feeds, which count no followers, show here.
        </EmptyState>
      ) : (
        <>
          <ul className={styles.list} aria-label="Suggestions waiting for review">
            {suggestions.map((suggestion) => (
              <li key={suggestion.id}>
                <SuggestedPublicationCard publication={suggestion.publication}>
                  <Decision suggestion={suggestion} />
                </SuggestedPublicationCard>
              </li>
            ))}
          </ul>
          <MoreButton query={queue} />
        </>
      );
  }

  return (
    <>
      <PageMeta seo={{ title: `Suggestions to review · ${APP_NAME}` }} />
      <div className={styles.page}>
        <h1 className={styles.title}>Suggestions to review</h1>
        {content}
        {isModerator ? (
          <>
            <SourcesNeedingAttention />
            <ImportSources />
          </>
        ) : null}
      </div>
    </>
  );
}

function Decision({ suggestion }: { suggestion: Suggestion }) {
  const decide = useDecideSuggestion();
  const name = suggestion.publication.name;
  return (
    <div className={`${styles.row} ${styles.description}`}>
      <p className={styles.note}>
        Suggested {formatRelative(suggestion.suggestedAt)} ·{' '}
        <a href={suggestion.publication.sourceUrl}>{suggestion.publication.sourceUrl}</a>
        {/* What accepting does differs for a feed: say so before the moderator decides. */}
        {suggestion.publication.followers === null ? ` · A feed: accepted, it is ranked on ${BOARD_NAMES.activity} only.` : null}
      </p>
      <Button
        onClick={() => decide.mutate({ id: suggestion.id, decision: 'accept' })}
        disabled={decide.isPending}
        aria-label={`Accept ${name}`}
      >
        Accept
      </Button>
      <Button
        variant="secondary"
        onClick={() => decide.mutate({ id: suggestion.id, decision: 'reject' })}
        disabled={decide.isPending}
        aria-label={`Reject ${name}`}
      >
        Reject
      </Button>
      {decide.isError ? <p role="alert">{decide.error.message || 'The decision did not get through. Try again.'}</p> : null}
    </div>
  );
}
