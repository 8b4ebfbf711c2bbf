import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useReturnFocus } from '../lib/return-focus';
import { Button } from './button';
import { CloseIcon } from './icons';
import styles from './dialog.module.css';

/**
 * A modal that is open while it is mounted (render it only while open): the overlay, a Close
 * button, the title and the words under it (the dialog's accessible name and description), then
 * its body. Escape, a click on the overlay, Close and any Dialog.Close in the body call onClose;
 * focus then goes back to the control that opened it.
 */
export function DialogFrame({
  title,
  description,
  onClose,
  wide = false,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  onClose: () => void;
  /** Room for a form larger than a confirmation (600 px rather than 420 px). */
  wide?: boolean;
  children?: ReactNode;
}) {
  // Mounted only while open: the control focused at mount is the one that opened it.
  const returnFocus = useReturnFocus(true);
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={wide ? styles.wideModal : styles.modal} onCloseAutoFocus={returnFocus}>
          <Dialog.Close asChild>
            <Button variant="ghost" iconOnly className={styles.close} aria-label="Close">
              <CloseIcon />
            </Button>
          </Dialog.Close>
          <Dialog.Title className={styles.title}>{title}</Dialog.Title>
          <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
