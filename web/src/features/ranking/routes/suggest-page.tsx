import { useId, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { type Suggestion, suggestionBodySchema } from '@shared/schemas/suggestions';
import { Button } from '../../../components/button';
import { MoreButton } from '../../../components/more-button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useMySuggestions } from '../api/list-my-suggestions';
import { usePreviewSuggestion } from '../api/preview-suggestion';
import { useSuggestPublication } from '../api/suggest-publication';
import { SuggestedPublicationCard } from '../components/suggested-publication';
import fieldStyles from '../../../components/field.module.css';
import styles from '../components/suggestion.module.css';
import { BOARD_NAMES } from '../lib/board-names';
import { formatExact } from '../lib/format';
import { publicationPath } from '../lib/paths';

/** What became of a suggestion, in a sentence. */
export function suggestionStatusText(suggestion: Suggestion): string {
  if (suggestion.status === 'accepted') return 'Added: on the boards from the next hourly ranking.';
  if (suggestion.status === 'rejected') return 'Not added: a moderator declined it.';
  return 'Waiting for a moderator.';
}

/**
 * /suggest : a signed-in reader pastes a publication's address, sees what its platform shows,
 * and suggests it. One with enough followers is added at once; the rest, and every feed (which
 * counts no followers), wait for a moderator.
 * Below, the reader's own suggestions and what became of them.
 */
export function SuggestPage() {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();

  let content;
  if (isPending) {
    content = <PageSpinner label="Loading" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to suggest a publication">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else {
    content = (
      <>
        <SuggestForm />
        <MySuggestions />
      </>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Suggest a publication · ${APP_NAME}` }} />
      <div className={styles.page}>
        <h1 className={styles.title}>Suggest a publication</h1>
        <p className={styles.intro}>
          Missing a publication? Paste its address: a Medium publication, a WordPress.com blog, or a site’s RSS or Atom feed. We
          read its followers and posts from there; a feed counts no followers, so it is ranked by how recently it posts.
        </p>
        {content}
      </div>
    </>
  );
}

function SuggestForm() {
  const id = useId();
  const [url, setUrl] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const preview = usePreviewSuggestion();
  const suggest = useSuggestPublication();
  const alertId = `${id}-alert`;
  const problem = invalid ?? (preview.isError ? preview.error.message : null) ?? (suggest.isError ? suggest.error.message : null);

  const checked = () => {
    const parsed = suggestionBodySchema.safeParse({ url });
    if (parsed.success) return parsed.data.url;
    setInvalid(parsed.error.issues[0]?.message ?? 'Paste the address of a publication');
    return null;
  };

  return (
    <>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const address = checked();
          if (address) preview.mutate(address);
        }}
      >
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={id}>
            Publication address
          </label>
          <input
            id={id}
            className={fieldStyles.input}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://medium.com/…"
            value={url}
            onChange={(event) => {
              setUrl(event.target.value);
              setInvalid(null);
              preview.reset();
              suggest.reset();
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? alertId : undefined}
          />
        </div>
        {problem ? (
          <p id={alertId} className={fieldStyles.alert} role="alert">
            {problem}
          </p>
        ) : null}
        <div className={styles.row}>
          <Button type="submit" disabled={preview.isPending || !url.trim()} aria-busy={preview.isPending}>
            {preview.isPending ? 'Reading…' : 'Preview'}
          </Button>
        </div>
      </form>
      {preview.isSuccess ? (
        <section aria-label="Preview">
          <SuggestedPublicationCard publication={preview.data.publication} />
          <PreviewOutcome
            knownSlug={preview.data.knownSlug}
            wouldBeAccepted={preview.data.wouldBeAccepted}
            followers={preview.data.publication.followers}
            suggestion={suggest.data?.suggestion ?? null}
            alreadyKnown={suggest.data?.alreadyKnown ?? false}
            suggesting={suggest.isPending}
            onSuggest={() => suggest.mutate(preview.data.publication.sourceUrl)}
          />
        </section>
      ) : null}
    </>
  );
}

function PreviewOutcome(props: {
  knownSlug: string | null;
  wouldBeAccepted: boolean;
  followers: number | null;
  suggestion: Suggestion | null;
  alreadyKnown: boolean;
  suggesting: boolean;
  onSuggest: () => void;
}) {
  const { knownSlug, suggestion } = props;
  if (knownSlug) {
    return (
      <p className={styles.outcome} role="status">
        Already on {APP_NAME}: <Link to={publicationPath(knownSlug)}>see its page</Link>.
      </p>
    );
  }
  if (suggestion) {
    return (
      <p className={styles.outcome} role="status">
        {props.alreadyKnown ? 'Someone suggested it before you. ' : 'Thank you. '}
        {suggestionStatusText(suggestion)}
        {suggestion.slug ? (
          <>
            {' '}
            <Link to={publicationPath(suggestion.slug)}>See its page</Link>.
          </>
        ) : null}
      </p>
    );
  }
  // A feed is never added at once: the follower floor that vouches for a publication cannot apply to it.
  const expectation =
    props.followers === null
      ? `It has no follower count, so a moderator reviews it first; once accepted, it is ranked on the ${BOARD_NAMES.activity} board.`
      : props.wouldBeAccepted
        ? `With ${formatExact(props.followers)} followers, it is added as soon as you suggest it.`
        : 'A moderator reviews it before it is added.';
  return (
    <div className={styles.row}>
      <p className={styles.note}>{expectation}</p>
      <Button onClick={props.onSuggest} disabled={props.suggesting} aria-busy={props.suggesting}>
        {props.suggesting ? 'Suggesting…' : 'Suggest it'}
      </Button>
    </div>
  );
}

function MySuggestions() {
  const mine = useMySuggestions(true);
  if (mine.isPending) return null;
  if (mine.isError) {
    return <ErrorState title="Your suggestions could not be loaded" error={mine.error} onRetry={() => void mine.refetch()} />;
  }
  const suggestions = mine.data.pages.flatMap((page) => page.items);
  if (suggestions.length === 0) return null;
  return (
    <section aria-labelledby="my-suggestions">
      <h2 id="my-suggestions" className={styles.subtitle}>
        Your suggestions
      </h2>
      <ul className={styles.list} aria-label="Your suggestions">
        {suggestions.map((suggestion) => (
          <li key={suggestion.id}>
            <SuggestedPublicationCard publication={suggestion.publication}>
              <p className={styles.description}>
                <span className={styles.status}>{suggestionStatusText(suggestion)}</span>
                {suggestion.slug ? (
                  <>
                    {' '}
                    <Link to={publicationPath(suggestion.slug)}>See its page</Link>
                  </>
                ) : null}
              </p>
            </SuggestedPublicationCard>
          </li>
        ))}
      </ul>
      <MoreButton query={mine} />
    </section>
  );
}
