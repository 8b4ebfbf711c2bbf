import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../components/button';
import { CloseIcon } from '../../components/icons';
import { ShareStoryForm } from '../../features/stories/components/share-story-form';
import { useReturnFocus } from '../../lib/return-focus';
import { useShareStory } from '../../lib/share-story';
import styles from '../../components/dialog.module.css';

/** The share-story modal: open with a story's address (or none), closed when cleared. */
export function ShareStoryModal() {
  const { story, close } = useShareStory();
  const returnFocus = useReturnFocus(story !== null);
  return (
    <Dialog.Root open={story !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.modal}
          onCloseAutoFocus={returnFocus}
          onOpenAutoFocus={(event) => {
            // Straight to the address field: pasting is what comes next.
            const field = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLInputElement>('input[type="url"]');
            if (field) {
              event.preventDefault();
              field.focus();
            }
          }}
        >
          <Dialog.Close asChild>
            <Button variant="ghost" iconOnly className={styles.close} aria-label="Close">
              <CloseIcon />
            </Button>
          </Dialog.Close>
          <Dialog.Title className={styles.title}>Share a story</Dialog.Title>
          <Dialog.Description className={styles.description}>
            Paste the link to a story published elsewhere. Your followers see it in their feed.
          </Dialog.Description>
          {story ? <ShareStoryForm initialUrl={story.url ?? ''} onDone={close} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
