import { useQueryClient } from '@tanstack/react-query';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { useLoginModal } from '../../../lib/login-modal';
import { useClaimStoryAuthor } from '../api/claim-story-author';
import { updateCachedStory, useLikeStory } from '../api/like-story';
import { useSubmitStoryForReview } from '../api/submit-story-for-review';
import type { Story } from '../api/story-keys';
import { siteHostOf } from '@shared/stories/site-host';
import { personName, secureImage, sitePath, storyLink, storySite, storyTitle } from '../lib/story-display';
import styles from './story-card.module.css';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function likeHint(story: Story, signedIn: boolean): string | null {
  if (!signedIn) return null;
  if (story.currentUserRelation.isSharer) return 'You shared this story.';
  if (!story.currentUserRelation.didRedirect) return 'Read the story to like it.';
  return null;
}

/** What the sharer is told about their story's editorial review. */
const REVIEW_NOTES: Record<Story['review']['state'], string | null> = {
  none: null,
  submitted: 'Waiting for the editors.',
  accepted: null,
  rejected: 'The editors passed on this one.',
};

const commentWords = (count: number) => `${count} ${count === 1 ? 'comment' : 'comments'}`;

/**
 * One story: its title links out through the redirect route (which lets the reader like it
 * afterwards), then where it is from (its host links to the site's page), who shared it and who
 * says they wrote it, its comments (a link to its page) and the likes. Signed in, a reader can
 * say they wrote it; its sharer can submit it for the editorial review. `standalone` on the
 * story's own page: the title is the page's heading, and the comments are below it rather than
 * a link away.
 */
export function StoryCard({
  story,
  viewerId,
  standalone = false,
}: {
  story: Story;
  viewerId: string | null;
  standalone?: boolean;
}) {
  const signedIn = viewerId !== null;
  const queryClient = useQueryClient();
  const loginModal = useLoginModal();
  const like = useLikeStory();
  const claim = useClaimStoryAuthor();
  const review = useSubmitStoryForReview();
  const claimedByViewer = story.claimedAuthor !== null && story.claimedAuthor.userId === viewerId;
  const canClaim = signedIn && (story.claimedAuthor === null || claimedByViewer);
  const canSubmit = story.currentUserRelation.isSharer && (story.review.state === 'none' || story.review.state === 'submitted');
  const reviewNote = story.currentUserRelation.isSharer ? REVIEW_NOTES[story.review.state] : null;
  const failed = [like, claim, review].find((mutation) => mutation.isError)?.error;
  const relation = story.currentUserRelation;
  const canLike = signedIn && relation.didRedirect && !relation.isSharer;
  const hint = likeHint(story, signedIn);
  const titleId = `story-${story.id}-title`;
  const thumbnail = secureImage(story.imageUrl);
  const host = siteHostOf(story.canonicalUrl);
  // The site's own name when it has one, then its host, which leads to every story from it.
  const siteName = story.siteName && story.siteName.toLowerCase() !== host ? story.siteName : null;
  const Heading = standalone ? 'h1' : 'h2';

  const onOpen = () => {
    // The redirect records the open on the server; the card learns it at once, so Like works on return.
    if (signedIn && !relation.didRedirect) {
      updateCachedStory(queryClient, story.id, (cached) => ({
        ...cached,
        currentUserRelation: { ...cached.currentUserRelation, didRedirect: true },
      }));
    }
  };

  return (
    <article className={styles.card} aria-labelledby={titleId}>
      {thumbnail ? (
        // Decorative: the title beside it says what the story is. No referrer goes to the image's host.
        <img className={styles.thumb} src={thumbnail} alt="" width={96} height={64} loading="lazy" referrerPolicy="no-referrer" />
      ) : null}
      <Heading className={standalone ? `${styles.title} ${styles.pageTitle}` : styles.title} id={titleId}>
        <a className={styles.titleLink} href={storyLink(story)} target="_blank" rel="noopener" onClick={onOpen}>
          {storyTitle(story)}
        </a>
        {story.review.state === 'accepted' ? <span className={styles.badge}>Editors’ pick</span> : null}
      </Heading>
      <p className={styles.meta}>
        {host ? (
          <>
            {siteName ? `${siteName} (` : null}
            <Link to={sitePath(host)}>{host}</Link>
            {siteName ? ')' : null}
          </>
        ) : (
          storySite(story)
        )}
        {story.sharer ? (
          <>
            {' · shared by '}
            <Link to={`/@${story.sharer.username}`}>{personName(story.sharer)}</Link>
          </>
        ) : null}
        {story.claimedAuthor ? (
          <>
            {' · written by '}
            <Link to={`/@${story.claimedAuthor.username}`}>{personName(story.claimedAuthor)}</Link>
          </>
        ) : null}
        {' · '}
        <time dateTime={story.createdAt}>{dateFormat.format(new Date(story.createdAt))}</time>
        {' · '}
        {standalone ? (
          commentWords(story.commentCount)
        ) : (
          <Link to={`/stories/${encodeURIComponent(story.id)}`}>{commentWords(story.commentCount)}</Link>
        )}
      </p>
      <button
        type="button"
        className={styles.like}
        aria-pressed={relation.didUpvote}
        aria-label={`${relation.didUpvote ? 'Unlike' : 'Like'}: ${story.likeCount} ${story.likeCount === 1 ? 'like' : 'likes'}`}
        disabled={signedIn && !canLike}
        onClick={() => (signedIn ? like.mutate({ id: story.id, liked: !relation.didUpvote }) : loginModal.open())}
      >
        <span aria-hidden="true">♥</span> {story.likeCount}
      </button>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
      {canClaim || canSubmit ? (
        <div className={styles.actions}>
          {canClaim ? (
            <button
              type="button"
              className={styles.action}
              aria-pressed={claimedByViewer}
              disabled={claim.isPending}
              onClick={() => claim.mutate({ id: story.id, claimed: !claimedByViewer })}
            >
              I wrote this
            </button>
          ) : null}
          {canSubmit ? (
            <button
              type="button"
              className={styles.action}
              aria-pressed={story.review.state === 'submitted'}
              disabled={review.isPending}
              onClick={() => review.mutate({ id: story.id, submitted: story.review.state !== 'submitted' })}
            >
              Submit for review
            </button>
          ) : null}
        </div>
      ) : null}
      {reviewNote ? <p className={styles.hint}>{reviewNote}</p> : null}
      {failed ? (
        <p className={styles.hint} role="alert">
          {failed.message || 'That did not get through. Try again.'}
        </p>
      ) : null}
    </article>
  );
}
