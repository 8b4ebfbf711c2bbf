import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { renderMarkdown } from '@shared/markdown';
import { COMMENT_MAX_DEPTH } from '@shared/stories/comment-rules';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { MoreButton } from '../../../components/more-button';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { ReportFields, type ReportReason } from '../../../components/report-fields';
import { Spinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { toast } from '../../../lib/toast';
import { useAddStoryComment } from '../api/add-story-comment';
import { useDeleteStoryComment } from '../api/delete-story-comment';
import { useEditStoryComment } from '../api/edit-story-comment';
import { useStoryComments } from '../api/list-story-comments';
import { useReportStoryComment } from '../api/report-story-comment';
import { type Comment, storyKeys } from '../api/story-keys';
import { buildThreads, type CommentNode, loadedComments } from '../lib/comment-thread';
import { personName } from '../lib/story-display';
import { CommentForm, commentProblem } from './comment-form';
import styles from './comments.module.css';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const PLACEHOLDER_NAMES: Record<Exclude<Comment['state'], 'visible'>, string> = {
  deleted: 'Deleted comment',
  removed: 'Removed comment',
  hidden: 'Hidden comment',
};

const replyWords = (count: number) => `${count} ${count === 1 ? 'reply' : 'replies'}`;

/** Whether the comment may still be edited, turning false on its own when the window closes. */
function useEditable(editableUntil: string | null): boolean {
  const until = editableUntil ? Date.parse(editableUntil) : 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return undefined;
    // setTimeout's longest wait is about 24.8 days; the window is minutes.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(left + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until]);
  return until > now;
}

interface ThreadContext {
  storyId: string;
  viewerId: string | null;
}

/**
 * A story's comments for everyone: threads nested under their parents, each one collapsible,
 * "[deleted]", "[removed]" and hidden placeholders where the API puts them, further pages on
 * demand. Signed in, a reader comments, replies, edits (within the window the API gives),
 * deletes their own and reports others'; signed out, they are asked to log in.
 */
export function StoryComments({ storyId, commentCount }: { storyId: string; commentCount: number }) {
  // The count the comments came with is the latest: the story's may be from a page cached a minute.
  const { user, isPending: userPending } = useCurrentUser();
  const viewerId = user?.userId ?? null;
  const loginModal = useLoginModal();
  const query = useStoryComments(storyId, viewerId, !userPending);
  const headingId = useId();
  const threads = useMemo(() => buildThreads(loadedComments(query.data?.pages ?? [])), [query.data]);
  const context = useMemo(() => ({ storyId, viewerId }), [storyId, viewerId]);

  let list;
  if (userPending || query.isPending) {
    list = <Spinner label="Loading the comments" />;
  } else if (query.isError) {
    list = (
      <ErrorState title="The comments could not be loaded" error={query.error} onRetry={() => void query.refetch()} compact />
    );
  } else if (threads.length === 0) {
    list = <p className={styles.muted}>No comments yet.</p>;
  } else {
    list = (
      <>
        <ol className={styles.thread} aria-labelledby={headingId}>
          {threads.map((node) => (
            <CommentThread key={node.comment.id} node={node} context={context} />
          ))}
        </ol>
        <MoreButton query={query} label="Show more comments" className={styles.more} />
      </>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={headingId} id="comments">
      <h2 className={styles.heading} id={headingId}>
        Comments ({query.data?.pages[0]?.commentCount ?? commentCount})
      </h2>
      {user ? (
        <NewComment storyId={storyId} viewerId={user.userId} />
      ) : userPending ? null : (
        <div>
          <Button variant="secondary" onClick={loginModal.open}>
            Log in to comment
          </Button>
        </div>
      )}
      {list}
    </section>
  );
}

function NewComment({ storyId, viewerId }: { storyId: string; viewerId: string }) {
  const add = useAddStoryComment(storyId, viewerId);
  return (
    <CommentForm
      label="Your comment"
      submitLabel="Post comment"
      pendingLabel="Posting…"
      pending={add.isPending}
      error={add.error}
      onSubmit={(body) => add.mutateAsync({ body })}
    />
  );
}

type Open = 'reply' | 'edit' | 'delete' | 'report' | null;

/** One comment and, under it, the replies to it, which a button folds away. */
function CommentThread({ node, context }: { node: CommentNode; context: ThreadContext }) {
  const [expanded, setExpanded] = useState(true);
  const repliesId = useId();
  const { comment } = node;
  return (
    <li className={styles.item}>
      <CommentView comment={comment} context={context}>
        {node.descendantCount > 0 ? (
          <button
            type="button"
            className={styles.toggle}
            aria-expanded={expanded}
            aria-controls={repliesId}
            onClick={() => setExpanded((was) => !was)}
          >
            {expanded ? `Hide ${replyWords(node.descendantCount)}` : `Show ${replyWords(node.descendantCount)}`}
          </button>
        ) : null}
      </CommentView>
      {node.replies.length > 0 ? (
        <ol className={styles.replies} id={repliesId} hidden={!expanded} aria-label={`Replies to ${commentName(comment)}`}>
          {node.replies.map((reply) => (
            <CommentThread key={reply.comment.id} node={reply} context={context} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

/** What a comment is called: by whom, or what stands in its place. */
function commentName(comment: Comment): string {
  if (comment.state !== 'visible') return PLACEHOLDER_NAMES[comment.state];
  return comment.author ? `Comment by ${personName(comment.author)}` : 'Comment by a deleted account';
}

function CommentView({ comment, context, children }: { comment: Comment; context: ThreadContext; children: ReactNode }) {
  const [open, setOpen] = useState<Open>(null);
  const visible = comment.state === 'visible';
  const own = visible && context.viewerId !== null && comment.author?.userId === context.viewerId;
  const editable = useEditable(own ? comment.editableUntil : null);
  const mayReply = visible && context.viewerId !== null && comment.depth < COMMENT_MAX_DEPTH;
  // The one renderer the API and the server-rendered page use: it writes no markup but its own.
  const html = useMemo(() => (visible && comment.body !== null ? renderMarkdown(comment.body) : ''), [visible, comment.body]);
  const toggle = (what: Exclude<Open, null>) => setOpen((was) => (was === what ? null : what));

  return (
    <article className={styles.comment} id={`comment-${comment.id}`} aria-label={commentName(comment)}>
      <p className={styles.meta}>
        {visible ? (
          comment.author ? (
            <Link to={`/@${comment.author.username}`} className={styles.author}>
              {personName(comment.author)}
            </Link>
          ) : (
            <span className={styles.author}>A deleted account</span>
          )
        ) : null}
        <time dateTime={comment.createdAt}>{timeFormat.format(new Date(comment.createdAt))}</time>
        {visible && comment.editedAt ? <span>(edited)</span> : null}
      </p>
      {visible ? (
        <div className={styles.body} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className={styles.placeholder}>
          {comment.state === 'deleted'
            ? '[deleted]'
            : comment.state === 'removed'
              ? '[removed]'
              : '[hidden: you blocked its author]'}
        </p>
      )}
      <div className={styles.actions}>
        {children}
        {mayReply ? (
          <button type="button" className={styles.action} aria-expanded={open === 'reply'} onClick={() => toggle('reply')}>
            Reply
          </button>
        ) : null}
        {own && editable ? (
          <button type="button" className={styles.action} aria-expanded={open === 'edit'} onClick={() => toggle('edit')}>
            Edit
          </button>
        ) : null}
        {own ? (
          <button type="button" className={styles.action} onClick={() => setOpen('delete')}>
            Delete
          </button>
        ) : null}
        {visible && context.viewerId !== null && !own ? (
          <button type="button" className={styles.action} onClick={() => setOpen('report')}>
            Report
          </button>
        ) : null}
      </div>
      {open === 'reply' && context.viewerId ? (
        <ReplyForm comment={comment} storyId={context.storyId} viewerId={context.viewerId} onDone={() => setOpen(null)} />
      ) : null}
      {open === 'edit' && editable && context.viewerId ? (
        <EditForm comment={comment} storyId={context.storyId} viewerId={context.viewerId} onDone={() => setOpen(null)} />
      ) : null}
      {open === 'delete' && context.viewerId ? (
        <DeleteDialog comment={comment} storyId={context.storyId} viewerId={context.viewerId} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'report' ? <ReportDialog comment={comment} storyId={context.storyId} onClose={() => setOpen(null)} /> : null}
    </article>
  );
}

/** A 410 means the comment changed under the reader: the list is read again to show what it is now. */
function useRefreshWhenGone(storyId: string, viewerId: string) {
  const queryClient = useQueryClient();
  return (error: unknown) => {
    if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
      void queryClient.invalidateQueries({ queryKey: storyKeys.comments(storyId, viewerId) });
    }
  };
}

function ReplyForm({
  comment,
  storyId,
  viewerId,
  onDone,
}: {
  comment: Comment;
  storyId: string;
  viewerId: string;
  onDone: () => void;
}) {
  const add = useAddStoryComment(storyId, viewerId);
  const refreshWhenGone = useRefreshWhenGone(storyId, viewerId);
  const name = comment.author ? personName(comment.author) : 'this comment';
  return (
    <CommentForm
      label={`Reply to ${name}`}
      submitLabel="Post reply"
      pendingLabel="Posting…"
      parentId={comment.id}
      pending={add.isPending}
      error={add.error}
      onSubmit={(body) => add.mutateAsync({ body, parentId: comment.id }, { onSuccess: onDone, onError: refreshWhenGone })}
      onCancel={onDone}
    />
  );
}

function EditForm({
  comment,
  storyId,
  viewerId,
  onDone,
}: {
  comment: Comment;
  storyId: string;
  viewerId: string;
  onDone: () => void;
}) {
  const edit = useEditStoryComment(storyId, viewerId);
  const refreshWhenGone = useRefreshWhenGone(storyId, viewerId);
  return (
    <CommentForm
      label="Edit your comment"
      submitLabel="Save"
      pendingLabel="Saving…"
      initialBody={comment.body ?? ''}
      edit
      pending={edit.isPending}
      error={edit.error}
      onSubmit={(body) => edit.mutateAsync({ commentId: comment.id, body }, { onSuccess: onDone, onError: refreshWhenGone })}
      onCancel={onDone}
    />
  );
}

function DeleteDialog({
  comment,
  storyId,
  viewerId,
  onClose,
}: {
  comment: Comment;
  storyId: string;
  viewerId: string;
  onClose: () => void;
}) {
  const remove = useDeleteStoryComment(storyId, viewerId);
  const refreshWhenGone = useRefreshWhenGone(storyId, viewerId);
  return (
    <ConfirmDialog
      title="Delete your comment?"
      description={
        comment.replyCount > 0
          ? 'Its text and your name go; the replies under it stay, under “[deleted]”.'
          : 'It goes from the story for everyone. This cannot be undone.'
      }
      confirmLabel="Delete comment"
      pendingLabel="Deleting…"
      danger
      pending={remove.isPending}
      error={remove.isError ? commentProblem(remove.error) : undefined}
      onClose={onClose}
      onConfirm={() => remove.mutate(comment.id, { onSuccess: onClose, onError: refreshWhenGone })}
    />
  );
}

function ReportDialog({ comment, storyId, onClose }: { comment: Comment; storyId: string; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReason>('spam');
  const [details, setDetails] = useState('');
  const report = useReportStoryComment();
  const send = () => {
    const trimmed = details.trim();
    report.mutate(
      { storyId, commentId: comment.id, reason, details: trimmed || undefined },
      {
        onSuccess: () => {
          toast.success('Thanks, your report was sent');
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog
      title="Report this comment"
      description="The moderators read what you send, and remove comments that break the rules."
      confirmLabel="Send report"
      pendingLabel="Sending…"
      pending={report.isPending}
      error={report.isError ? commentProblem(report.error) : undefined}
      onClose={onClose}
      onConfirm={send}
    >
      <ReportFields reason={reason} details={details} onReasonChange={setReason} onDetailsChange={setDetails} />
    </ConfirmDialog>
  );
}
