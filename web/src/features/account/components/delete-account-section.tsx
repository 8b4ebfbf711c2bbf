import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../components/button';
import { ChunkBoundary } from '../../../components/chunk-boundary';
import styles from './account.module.css';
import { Section } from './section';

// Radix Dialog (focus trap, scroll lock) is downloaded only when the dialog first opens.
const DeleteAccountDialog = lazy(() =>
  import('./delete-account-dialog').then((module) => ({ default: module.DeleteAccountDialog })),
);

/** The danger zone: deleting the account, behind a dialog that asks for the username. */
export function DeleteAccountSection({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Section
      title="Delete account"
      tone="danger"
      lede="Deleting your account frees your username and email and logs you out everywhere. It cannot be undone."
    >
      <div className={styles.actions}>
        <Button className={styles.dangerButton} onClick={() => setOpen(true)}>
          Delete account…
        </Button>
      </div>
      {open ? (
        <ChunkBoundary fallback={null}>
          <Suspense fallback={null}>
            <DeleteAccountDialog username={username} onClose={() => setOpen(false)} />
          </Suspense>
        </ChunkBoundary>
      ) : null}
    </Section>
  );
}
