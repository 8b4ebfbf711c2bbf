import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { currentUserQueryKey, useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useAccount } from '../api/get-account';
import { AccountCard } from '../components/account-card';
import styles from '../components/account.module.css';
import { BlockedUsersSection } from '../components/blocked-users-section';
import { ConnectedAccountsSection } from '../components/connected-accounts-section';
import { DeleteAccountSection } from '../components/delete-account-section';
import { EmailPreferencesSection } from '../components/email-preferences-section';
import { ProfileSection } from '../components/profile-section';
import { Section } from '../components/section';
import { SessionsSection } from '../components/sessions-section';
import { SettingsSection } from '../components/settings-section';

/** A section another feature adds to the dashboard (the app composes it in: features do not import each other). */
export interface ExtraSection {
  title: string;
  lede: ReactNode;
  content: ReactNode;
}

/** /me : the signed-in user's own account, section by section; `extraSections` follow the profile. */
export function MePage({ extraSections = [] }: { extraSections?: readonly ExtraSection[] } = {}) {
  const { user, isPending, error } = useCurrentUser();
  const queryClient = useQueryClient();
  const loginModal = useLoginModal();

  let content;
  if (isPending) {
    content = <PageSpinner label="Loading your account" />;
  } else if (!user && error) {
    content = (
      <ErrorState
        title="Your account could not be loaded"
        error={error}
        onRetry={() => void queryClient.refetchQueries({ queryKey: currentUserQueryKey })}
      />
    );
  } else if (!user) {
    content = (
      <AccountCard icon="@" title="Log in to see your account" actions={<Button onClick={loginModal.open}>Log in</Button>}>
        <p>Your profile, settings, sessions and email preferences are here once you are logged in.</p>
      </AccountCard>
    );
  } else {
    content = <AccountDashboard userId={user.userId} username={user.username} extraSections={extraSections} />;
  }

  return (
    <>
      <PageMeta seo={{ title: `Your account · ${APP_NAME}` }} />
      {content}
    </>
  );
}

function AccountDashboard({
  userId,
  username,
  extraSections,
}: {
  userId: string;
  username: string;
  extraSections: readonly ExtraSection[];
}) {
  const account = useAccount(userId);

  if (account.isPending) return <PageSpinner label="Loading your account" />;
  if (account.isError) {
    return (
      <div className={styles.page}>
        <ErrorState
          title="Your account could not be loaded"
          error={account.error}
          onRetry={() => void account.refetch()}
          retrying={account.isFetching}
        />
      </div>
    );
  }

  const { user, settings, emailPreferences, blockedUsers, connectedAccounts } = account.data;
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Your account</h1>
        <p className={styles.lede}>
          Logged in as @{username}
          {user.email ? ` (${user.email})` : ''}. <Link to={`/@${user.username}`}>See your public profile</Link>
        </p>
      </header>
      <div className={styles.sections}>
        <ProfileSection key={user.userId} user={user} />
        {extraSections.map((section) => (
          <Section key={section.title} title={section.title} lede={section.lede}>
            {section.content}
          </Section>
        ))}
        <SettingsSection userId={userId} settings={settings} />
        <EmailPreferencesSection userId={userId} preferences={emailPreferences} />
        <SessionsSection userId={userId} />
        <ConnectedAccountsSection connectedAccounts={connectedAccounts} />
        <BlockedUsersSection blockedUsers={blockedUsers} />
        <DeleteAccountSection username={user.username} />
      </div>
    </div>
  );
}
