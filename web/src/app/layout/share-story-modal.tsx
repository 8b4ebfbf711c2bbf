import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../../components/button';
import { CloseIcon } from '../../components/icons';
import { useReturnFocus } from '../../lib/return-focus';
import { useShareStory } from '../../lib/share-story';
import styles from '../../components/dialog.module.css';

/** The share-story modal: open with a story, closed when cleared. The sharing form comes later. */
export function ShareStoryModal() {
  const { story, close } = useShareStory();
  const returnFocus = useReturnFocus(story !== null);
  return (
    <Dialog.Root open={story !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.modal} onCloseAutoFocus={returnFocus}>
          <Dialog.Close asChild>
            <Button variant="ghost" iconOnly className={styles.close} aria-label="Close">
              <CloseIcon />
            </Button>
          </Dialog.Close>
          <Dialog.Title className={styles.title}>Share a story</Dialog.Title>
          <Dialog.Description className={styles.description}>Share this story with your followers.</Dialog.Description>
          {story ? (
            <div className={styles.story}>
              {story.title ? <p>{story.title}</p> : null}
              {story.url ? (
                <a href={story.url} target="_blank" rel="noopener noreferrer">
                  {story.url}
                </a>
              ) : null}
            </div>
          ) : null}
          <div className={styles.row}>
            <Dialog.Close asChild>
              <Button variant="secondary">Close</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
