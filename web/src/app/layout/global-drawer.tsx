import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../components/button';
import { CloseIcon } from '../../components/icons';
import { useDrawer } from '../../lib/drawer';
import { useReturnFocus } from '../../lib/return-focus';
import styles from '../../components/dialog.module.css';

/** The right-hand global drawer, 85vw wide: open exactly while a config is set (useDrawer). */
export function GlobalDrawer() {
  const { config, close } = useDrawer();
  const returnFocus = useReturnFocus(config !== null);
  return (
    <Dialog.Root open={config !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.drawerOverlay} />
        <Dialog.Content className={styles.drawer} aria-describedby={undefined} onCloseAutoFocus={returnFocus}>
          <div className={styles.drawerHeader}>
            <Dialog.Title className={styles.title}>{config?.title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" iconOnly aria-label="Close">
                <CloseIcon />
              </Button>
            </Dialog.Close>
          </div>
          <div className={styles.drawerBody}>{config?.content}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
