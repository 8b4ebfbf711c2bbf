import type { ReactNode } from 'react';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, StateLinks } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import pageStyles from '../../../components/page.module.css';

/**
 * The merchant area is for signed-in people only: a visitor is asked to log in (the login modal,
 * then the page as it was), and nothing of the area is asked for until someone is.
 */
export function MerchantGate({ children }: { children: (userId: string) => ReactNode }) {
  const { user, isPending } = useCurrentUser();
  const loginModal = useLoginModal();
  if (user) return <>{children(user.userId)}</>;
  return (
    <div className={pageStyles.page}>
      <PageMeta seo={{ title: `Your shop · ${APP_NAME}` }} />
      {isPending ? (
        <PageSpinner label="Loading" />
      ) : (
        <EmptyState title="Log in to sell on your own shop" level={1}>
          <p>Open a shop, connect your Braintree account and sell products once or by subscription.</p>
          <StateLinks>
            <Button onClick={loginModal.open}>Log in</Button>
          </StateLinks>
        </EmptyState>
      )}
    </div>
  );
}
