import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { ApiError } from '../../../lib/api-client';
import { useUnlockTransferPackage } from '../api/unlock-transfer-package';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './transfers.module.css';
import packageStyles from './package.module.css';

/** The refusal in the server's words (a wrong password, how long to wait), else a plain retry. */
function refusalOf(error: unknown): string {
  if (error instanceof ApiError && (error.status === 403 || error.status === 429 || error.status === 400)) return error.message;
  if (error instanceof ApiError && error.status === 410) return 'This transfer has expired.';
  return 'The password could not be checked. Check your connection and try again.';
}

/**
 * What a password-protected package shows until this browser unlocks it: the server answers
 * nothing about the package before then (not even its title). The right password sets an
 * HttpOnly cookie and the package loads; a wrong one, or too many, is said under the field.
 */
export function PackagePasswordForm({ transferId }: { transferId: string }) {
  const passwordId = useId();
  const headingId = useId();
  const [password, setPassword] = useState('');
  const unlock = useUnlockTransferPackage(transferId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || unlock.isPending) return;
    unlock.mutate(password);
  };
  const error = unlock.isError ? refusalOf(unlock.error) : null;

  return (
    <section aria-labelledby={headingId} className={packageStyles.intro}>
      <h1 id={headingId} className={styles.title}>
        This transfer is protected by a password
      </h1>
      <p>Enter the password the sender gave you to see the files.</p>
      <form onSubmit={submit} noValidate aria-label="Unlock the transfer">
        <div className={fieldStyles.field}>
          <label htmlFor={passwordId} className={fieldStyles.label}>
            Password
          </label>
          <input
            id={passwordId}
            type="password"
            className={styles.input}
            value={password}
            autoComplete="off"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${passwordId}-error` : undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {error ? (
          <p id={`${passwordId}-error`} className={pageStyles.alert} role="alert">
            {error}
          </p>
        ) : null}
        <div className={pageStyles.actions}>
          <Button type="submit" disabled={!password || unlock.isPending} aria-busy={unlock.isPending || undefined}>
            {unlock.isPending ? 'Unlocking…' : 'Unlock'}
          </Button>
        </div>
      </form>
    </section>
  );
}
