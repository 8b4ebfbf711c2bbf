import { useId, useMemo, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { checkShareUrl, hostsOf, type ShareAlert } from '@shared/stories/sharing-rules';
import { Button } from '../../../components/button';
import { ApiError } from '../../../lib/api-client';
import { productHosts } from '../../../lib/product-hosts';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useShareStoryByUrl } from '../api/share-story-by-url';
import type { Story } from '../api/story-keys';
import { personName, secureImage, storyLink, storySite, storyTitle, unreadPageNote } from '../lib/story-display';
import fieldStyles from '../../../components/field.module.css';
import styles from './share-story-form.module.css';

/** How long typing pauses before the rules are checked: a half-typed address is not yet wrong. */
const CHECK_DELAY_MS = 300;

/** This site and its sibling apps' hosts, if any: the rules refuse their pages (the server decides with its own list). */
function ownHosts(): string[] {
  return hostsOf([window.location.origin, ...Object.values(productHosts())]);
}

/** The alert of a refused share, from the server's 400 (its `alert`) or any other failure's message. */
function alertOf(error: Error): ShareAlert {
  const alert = error instanceof ApiError ? (error.body?.alert as ShareAlert | undefined) : undefined;
  if (alert && typeof alert.title === 'string' && typeof alert.text === 'string') return alert;
  if (error instanceof ApiError && error.status === 429) return { title: 'Slow down', text: error.message };
  return { title: 'The story could not be shared', text: error.message || 'Try again in a moment.' };
}

/**
 * Paste a link to a story published elsewhere: the sharing rules run as you type (the same
 * function the server applies), then the server reads the page and the story is shown as
 * shared, or as the one already shared when someone was first.
 */
export function ShareStoryForm({ initialUrl = '', onDone }: { initialUrl?: string; onDone: () => void }) {
  const id = useId();
  const [url, setUrl] = useState(initialUrl);
  const [submitted, setSubmitted] = useState(false);
  const share = useShareStoryByUrl();
  const hosts = useMemo(() => ownHosts(), []);
  const typed = useDebouncedValue(url, CHECK_DELAY_MS);
  // As you type: judged once typing pauses. On Share: judged on what is there now.
  const shown = submitted ? url : typed;
  const check = shown.trim() ? checkShareUrl(shown.trim(), { ownHosts: hosts }) : null;
  const ruleAlert = check && !check.ok ? check.alert : null;
  const alert = ruleAlert ?? (share.isError ? alertOf(share.error) : null);
  const alertId = `${id}-alert`;

  if (share.isSuccess) {
    return <SharedStory story={share.data.story} duplicate={share.data.duplicate} onDone={onDone} />;
  }

  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        const now = checkShareUrl(url.trim(), { ownHosts: hosts });
        if (now.ok) share.mutate(now.url);
      }}
    >
      <div className={fieldStyles.field}>
        <label className={fieldStyles.label} htmlFor={id}>
          Story URL
        </label>
        <input
          id={id}
          className={fieldStyles.input}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://"
          value={url}
          onChange={(event) => {
            setUrl(event.target.value);
            setSubmitted(false);
            share.reset();
          }}
          aria-invalid={alert ? true : undefined}
          aria-describedby={alert ? alertId : undefined}
        />
      </div>
      {alert ? (
        <p id={alertId} className={fieldStyles.alert} role="alert">
          <span className={styles.alertTitle}>{alert.title}</span>
          {alert.text}
        </p>
      ) : (
        <p className={styles.note}>A story published elsewhere: a blog post, an article, a newsletter issue.</p>
      )}
      <div className={styles.actions}>
        <Button variant="secondary" type="button" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={share.isPending || !url.trim()} aria-busy={share.isPending}>
          {share.isPending ? 'Reading the page…' : 'Share'}
        </Button>
      </div>
    </form>
  );
}

/** What became of the share: the story is new, or someone (perhaps the sharer) was first. */
function sharedNote(story: Story, duplicate: boolean): string {
  if (duplicate) {
    if (story.currentUserRelation.isSharer) return 'You already shared this story: here it is.';
    return `Already shared${story.sharer ? ` by ${personName(story.sharer)}` : ''}: here it is.`;
  }
  if (story.source === 'url-only') {
    return `Shared. ${unreadPageNote(story)}`;
  }
  return 'Shared with your followers.';
}

function SharedStory({ story, duplicate, onDone }: { story: Story; duplicate: boolean; onDone: () => void }) {
  const title = storyTitle(story);
  const image = secureImage(story.imageUrl);
  return (
    <div>
      <p role="status" className={styles.note}>
        {sharedNote(story, duplicate)}
      </p>
      <article className={styles.preview} aria-label={`Preview: ${title}`}>
        {/* Decorative: the title says what the story is. No referrer goes to the image's host. */}
        {image ? <img className={styles.previewImage} src={image} alt="" referrerPolicy="no-referrer" /> : null}
        <div className={styles.previewText}>
          <h3 className={styles.previewTitle}>
            <a href={storyLink(story)} target="_blank" rel="noopener">
              {title}
            </a>
          </h3>
          <p className={styles.previewDescription}>{[storySite(story), story.description].filter(Boolean).join(' · ')}</p>
        </div>
      </article>
      <div className={styles.actions}>
        {/* An earlier story may be far down New: the preview's title is the way to it. */}
        {duplicate ? null : (
          <Link to="/stories/new" onClick={onDone}>
            See it in New
          </Link>
        )}
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
