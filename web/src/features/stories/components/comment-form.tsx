import { type FormEvent, useState } from 'react';
import { addCommentBodySchema, editCommentBodySchema } from '@shared/schemas/comments';
import { COMMENT_MAX_LENGTH } from '@shared/stories/comment-rules';
import { Button } from '../../../components/button';
import { TextArea } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import styles from './comments.module.css';

/**
 * Why the API refused a comment, in words: its own sentence (how long to wait, who blocked
 * whom, what became of the comment), else one for its status.
 */
export function commentProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (typeof error.body?.message === 'string' && error.body.message) return error.body.message;
    if (error.status === 429) {
      const wait = typeof error.body?.retryAfterSeconds === 'number' ? error.body.retryAfterSeconds : null;
      return `You are commenting very fast. Try again in ${wait ? `${wait} ${wait === 1 ? 'second' : 'seconds'}` : 'a minute'}.`;
    }
    if (error.status === 403) return 'You cannot do that: you or the other person has blocked the other.';
    if (error.status === 410) return 'This comment is gone: it was deleted or removed.';
  }
  return 'That did not get through. Check your connection and try again.';
}

/**
 * The text of a new comment, a reply or an edit: checked by the API's own body schema before it
 * is sent, and the button stays disabled while it is being sent, so one click posts once.
 */
export function CommentForm({
  label,
  submitLabel,
  pendingLabel,
  initialBody = '',
  parentId,
  edit = false,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  pendingLabel: string;
  initialBody?: string;
  parentId?: string | undefined;
  /** Checked as an edit (no parent), else as a new comment or reply. */
  edit?: boolean;
  pending: boolean;
  /** The API's refusal of the last attempt. */
  error: unknown;
  /** Called with the checked body; resolves once the API took it (the form then empties). */
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: (() => void) | undefined;
}) {
  const [body, setBody] = useState(initialBody);
  const [problem, setProblem] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const checked = edit
      ? editCommentBodySchema.safeParse({ body })
      : addCommentBodySchema.safeParse({ body, ...(parentId ? { parentId } : {}) });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Check the comment');
      return;
    }
    setProblem(undefined);
    onSubmit(checked.data.body).then(
      () => setBody(''),
      () => undefined,
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextArea
        label={label}
        value={body}
        rows={edit ? 4 : 3}
        maxLength={COMMENT_MAX_LENGTH}
        hint="Markdown: *emphasis*, **strong**, `code`, > quotes, [links](https://…)."
        error={problem}
        onChange={(event) => {
          setBody(event.target.value);
          if (problem) setProblem(undefined);
        }}
      />
      {error ? (
        <p className={styles.alert} role="alert">
          {commentProblem(error)}
        </p>
      ) : null}
      <div className={styles.formActions}>
        <Button type="submit" size="small" disabled={pending} aria-busy={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="ghost" size="small" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
