import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TWITTER_CONNECTED_FRAGMENT } from '@shared/return-path';
import { Button } from '../../../components/button';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { AccountOverview } from '../api/account-keys';
import { useDisconnectTwitter } from '../api/disconnect-twitter';
import { startTwitterConnect } from '../api/twitter-login-url';
import styles from './account.module.css';
import { formatDateTime } from './format';
import { Section } from './section';

type ConnectedAccount = AccountOverview['connectedAccounts'][number];

const PROVIDER_NAMES: Record<ConnectedAccount['provider'], string> = { google: 'Google', twitter: 'Twitter' };

/** The message to show for a failed request: the server's own when it sent one. */
function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** The outside logins (Google, Twitter) connected to the account; Twitter can be connected or disconnected here. */
export function ConnectedAccountsSection({ connectedAccounts }: { connectedAccounts: ConnectedAccount[] }) {
  const disconnect = useDisconnectTwitter();
  const [connecting, setConnecting] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const twitter = connectedAccounts.find((account) => account.provider === 'twitter');
  const hasTwitter = twitter !== undefined;
  const location = useLocation();
  const navigate = useNavigate();

  // Back from connecting Twitter: confirm it by its handle, then take the marker off the address.
  const justConnected = location.hash === `#${TWITTER_CONNECTED_FRAGMENT}`;
  useEffect(() => {
    if (!justConnected) return;
    toast.success(twitter?.displayName ? `Twitter connected: ${twitter.displayName}` : 'Twitter connected');
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [justConnected, twitter?.displayName, navigate, location.pathname, location.search]);

  const connectTwitter = async () => {
    setConnecting(true);
    setConnectError(null);
    try {
      await startTwitterConnect();
    } catch (error) {
      setConnectError(`Connecting Twitter failed: ${messageOf(error, 'The server did not answer. Try again.')}`);
      setConnecting(false);
    }
  };

  const disconnectError = disconnect.error
    ? disconnect.error instanceof ApiError && disconnect.error.status === 409 && disconnect.error.code === 'ONLY_LOGIN_METHOD'
      ? disconnect.error.message
      : `Disconnecting Twitter failed: ${messageOf(disconnect.error, 'The server did not answer. Try again.')}`
    : null;

  return (
    <Section title="Connected accounts" lede="Outside accounts you can log in with.">
      {connectedAccounts.length === 0 ? (
        <p className={styles.muted}>No outside accounts are connected.</p>
      ) : (
        <ul className={styles.list} aria-label="Connected accounts">
          {connectedAccounts.map((account) => {
            const name = PROVIDER_NAMES[account.provider];
            return (
              <li key={`${account.provider}-${account.connectedAt}`} className={styles.item}>
                <div className={styles.itemMain}>
                  <div className={styles.itemText}>
                    <span className={styles.itemTitle}>{account.displayName ? `${name} · ${account.displayName}` : name}</span>
                    <span className={styles.muted}>Connected {formatDateTime(account.connectedAt)}</span>
                  </div>
                </div>
                {account.provider === 'twitter' ? (
                  <Button
                    variant="secondary"
                    size="small"
                    onClick={() => disconnect.mutate()}
                    disabled={disconnect.isPending}
                    aria-busy={disconnect.isPending}
                  >
                    {disconnect.isPending ? 'Disconnecting…' : 'Disconnect'}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {disconnectError ? (
        <p className={styles.error} role="alert">
          {disconnectError}
        </p>
      ) : null}
      {hasTwitter ? null : (
        <div>
          <Button variant="secondary" onClick={() => void connectTwitter()} disabled={connecting} aria-busy={connecting}>
            {connecting ? 'Connecting…' : 'Connect Twitter'}
          </Button>
          {connectError ? (
            <p className={styles.error} role="alert">
              {connectError}
            </p>
          ) : null}
        </div>
      )}
    </Section>
  );
}
