import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { parseCommentReportId } from '@shared/stories/comment-rules';
import { MoreButton } from '../../../components/more-button';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import type { OpenReport } from '../api/account-keys';
import { useOpenReports } from '../api/list-open-reports';
import { useRemoveStoryComment } from '../api/remove-story-comment';
import { useResolveReports } from '../api/resolve-reports';
import styles from '../components/account.module.css';
import { formatDateTime } from '../components/format';

const REASONS: Record<OpenReport['reason'], string> = {
  spam: 'Spam',
  abuse: 'Abuse',
  impersonation: 'Impersonation',
  copyright: 'Copyright',
  other: 'Other',
};

interface ReportedObject {
  objectType: OpenReport['objectType'];
  objectId: string;
  reports: OpenReport[];
}

/** The open reports, one entry per reported object (its reports resolve together), in the order they came. */
function byObject(reports: readonly OpenReport[]): ReportedObject[] {
  const objects = new Map<string, ReportedObject>();
  for (const report of reports) {
    const key = `${report.objectType}:${report.objectId}`;
    const entry = objects.get(key) ?? { objectType: report.objectType, objectId: report.objectId, reports: [] };
    entry.reports.push(report);
    objects.set(key, entry);
  }
  return [...objects.values()];
}

/** /moderation : what people reported, for superusers to dismiss or act on. */
export function ModerationPage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const isModerator = user?.isSuperUser === true;
  const reports = useOpenReports(isModerator);

  let content;
  if (userPending) {
    content = <PageSpinner label="Loading the reports" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to moderate">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (!isModerator) {
    content = <EmptyState title="This page is for moderators">Only the platform's moderators see what people report.</EmptyState>;
  } else if (reports.isPending) {
    content = <PageSpinner label="Loading the reports" />;
  } else if (reports.isError) {
    content = <ErrorState title="The reports could not be loaded" error={reports.error} onRetry={() => void reports.refetch()} />;
  } else {
    const objects = byObject(reports.data.pages.flatMap((page) => page.items));
    content =
      objects.length === 0 ? (
        <EmptyState title="No open reports">What people report shows here until a moderator resolves it.</EmptyState>
      ) : (
        <>
          <ul className={styles.list} aria-label="Reported objects">
            {objects.map((object) => (
              <ReportedObjectItem key={`${object.objectType}:${object.objectId}`} object={object} />
            ))}
          </ul>
          <MoreButton query={reports} />
        </>
      );
  }

  return (
    <>
      <PageMeta seo={{ title: `Moderation · ${APP_NAME}` }} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>Moderation</h1>
        </header>
        {content}
      </div>
    </>
  );
}

function ReportedObjectItem({ object }: { object: ReportedObject }) {
  const resolve = useResolveReports();
  const removeComment = useRemoveStoryComment();
  const label = `${object.objectType} ${object.objectId}`;
  // A comment's objectId is '{story id}.{comment id}': it names the removal route's parameters.
  const comment = object.objectType === 'comment' ? parseCommentReportId(object.objectId) : null;
  const failed = resolve.error ?? removeComment.error;
  return (
    <li className={styles.moderationItem} aria-label={label}>
      <div className={styles.item}>
        <div className={styles.itemText}>
          <p className={styles.itemTitle}>
            {object.objectType === 'user' ? 'User' : object.objectType[0]?.toUpperCase() + object.objectType.slice(1)}{' '}
            <code>{object.objectId}</code> · {object.reports.length} {object.reports.length === 1 ? 'report' : 'reports'}
            {comment ? (
              <>
                {' · '}
                <Link to={`/stories/${encodeURIComponent(comment.storyId)}#comment-${encodeURIComponent(comment.commentId)}`}>
                  Read it in its thread
                </Link>
              </>
            ) : null}
          </p>
          <ul className={styles.reportList}>
            {object.reports.map((report) => (
              <li key={`${report.reporter?.userId ?? 'deleted'}:${report.createdAt}`}>
                <strong>{REASONS[report.reason]}</strong>
                {report.details ? `: ${report.details}` : ''} ·{' '}
                {report.reporter ? (
                  <Link to={`/@${report.reporter.username}`}>@{report.reporter.username}</Link>
                ) : (
                  'a deleted account'
                )}{' '}
                · <time dateTime={report.updatedAt}>{formatDateTime(report.updatedAt)}</time>
              </li>
            ))}
          </ul>
        </div>
        <div className={styles.actions}>
          <Button
            variant="secondary"
            size="small"
            disabled={resolve.isPending}
            onClick={() => resolve.mutate({ report: object, resolution: 'dismissed' })}
            aria-label={`Dismiss the reports on ${label}`}
          >
            Dismiss
          </Button>
          <Button
            size="small"
            disabled={resolve.isPending}
            onClick={() => resolve.mutate({ report: object, resolution: 'actioned' })}
            aria-label={`Mark the reports on ${label} acted on`}
          >
            Acted on
          </Button>
          {comment ? (
            <Button
              size="small"
              disabled={removeComment.isPending || resolve.isPending}
              aria-busy={removeComment.isPending}
              onClick={() => removeComment.mutate(comment)}
              aria-label={`Remove comment ${object.objectId}`}
            >
              {removeComment.isPending ? 'Removing…' : 'Remove comment'}
            </Button>
          ) : null}
        </div>
      </div>
      {failed ? (
        <p role="alert" className={styles.error}>
          {failed.message || 'That did not get through. Try again.'}
        </p>
      ) : null}
    </li>
  );
}
