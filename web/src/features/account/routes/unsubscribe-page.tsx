import { useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { ApiError } from '../../../lib/api-client';
import { useUnsubscribeNotificationEmails } from '../api/unsubscribe-notification-emails';
import { AccountCard } from '../components/account-card';

const NO_ANSWER = 'The server did not answer. Check your connection and try again.';

/**
 * /unsubscribe?token=… : where a notification email's "Stop these emails" link leads. Asks
 * before it acts: mail scanners open links, and only a person should turn the emails off.
 */
export function UnsubscribePage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const unsubscribe = useUnsubscribeNotificationEmails();
  const preferences = (
    <Link to="/me" className={buttonClassName({ variant: 'secondary' })}>
      Email preferences
    </Link>
  );

  let content;
  if (unsubscribe.isSuccess) {
    content = (
      <AccountCard icon="✓" title="Notification emails are off" role="status" actions={preferences}>
        <p>You will not get emails about likes, follows and reviews any more. They still show under the bell.</p>
      </AccountCard>
    );
  } else if (!token) {
    content = (
      <AccountCard icon="!" tone="error" title="This link is incomplete" role="alert" actions={preferences}>
        <p>Open the link from the email again, or turn notification emails off in your email preferences.</p>
      </AccountCard>
    );
  } else {
    const failure = unsubscribe.isError ? (
      <p role="alert">{unsubscribe.error instanceof ApiError ? unsubscribe.error.message : NO_ANSWER}</p>
    ) : null;
    content = (
      <AccountCard
        icon="✉"
        title="Stop notification emails?"
        actions={
          <>
            <Button onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending} aria-busy={unsubscribe.isPending}>
              {unsubscribe.isPending ? 'Turning them off…' : 'Stop notification emails'}
            </Button>
            {preferences}
          </>
        }
      >
        <p>{APP_NAME} emails you when someone likes your story, follows you or claims a story you shared.</p>
        {failure}
      </AccountCard>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Unsubscribe · ${APP_NAME}` }} />
      {content}
    </>
  );
}
