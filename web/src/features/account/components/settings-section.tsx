import { type FormEvent, useEffect, useId, useState } from 'react';
import { applyTheme, readThemeChoice, showTheme } from '../../../lib/theme';
import { toast } from '../../../lib/toast';
import type { UserSettings } from '../api/account-keys';
import { useUpsertSettings } from '../api/upsert-settings';
import fieldStyles from '../../../components/field.module.css';
import styles from './account.module.css';
import { SaveActions, SaveError, Section } from './section';

type Theme = NonNullable<UserSettings['theme']>;
type Board = NonNullable<UserSettings['defaultBoard']>;

/** Theme, the board the home page opens on, and whether it lists active publications only. */
export function SettingsSection({ userId, settings }: { userId: string; settings: UserSettings }) {
  const [theme, setTheme] = useState<Theme>(settings.theme ?? 'system');
  const [defaultBoard, setDefaultBoard] = useState<Board>(settings.defaultBoard ?? 'followers');
  const [activeOnly, setActiveOnly] = useState(settings.activeOnlyByDefault ?? false);
  const upsert = useUpsertSettings();
  const themeId = useId();
  const themeHintId = useId();
  const boardId = useId();
  const current = { theme, defaultBoard, activeOnlyByDefault: activeOnly };
  const [baseline, setBaseline] = useState(() => ({
    theme: settings.theme ?? 'system',
    defaultBoard: settings.defaultBoard ?? 'followers',
    activeOnlyByDefault: settings.activeOnlyByDefault ?? false,
  }));
  const [saved, setSaved] = useState(false);
  const dirty = JSON.stringify(current) !== JSON.stringify(baseline);

  // A theme picked shows at once; leaving without saving goes back to the one this device keeps.
  useEffect(() => () => showTheme(readThemeChoice()), []);
  const chooseTheme = (choice: Theme) => {
    setTheme(choice);
    showTheme(choice);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!dirty) return;
    upsert.mutate(
      { userId, settings: current },
      {
        onSuccess: ({ settings: stored }) => {
          applyTheme(stored.theme ?? 'system');
          setBaseline(current);
          setSaved(true);
          toast.success('Settings saved');
        },
      },
    );
  };

  return (
    <Section title="Settings" lede="How TopPubs looks and opens for you.">
      <form className={styles.form} onSubmit={save}>
        <div className={styles.grid}>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor={themeId}>
              Theme
            </label>
            <select
              id={themeId}
              className={styles.input}
              value={theme}
              aria-describedby={themeHintId}
              onChange={(event) => chooseTheme(event.target.value as Theme)}
            >
              <option value="system">Same as my device</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
            <p id={themeHintId} className={fieldStyles.hint}>
              Takes effect at once; save to keep it.
            </p>
          </div>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor={boardId}>
              Default board
            </label>
            <select
              id={boardId}
              className={styles.input}
              value={defaultBoard}
              onChange={(event) => setDefaultBoard(event.target.value as Board)}
            >
              <option value="followers">Most followed</option>
              <option value="growth">Fastest growing</option>
            </select>
          </div>
        </div>
        <label className={styles.checkbox}>
          <input type="checkbox" checked={activeOnly} onChange={(event) => setActiveOnly(event.target.checked)} />
          <span>Show active publications only by default</span>
        </label>
        <SaveError error={upsert.error} />
        <SaveActions label="Save settings" pending={upsert.isPending} dirty={dirty} saved={saved} />
      </form>
    </Section>
  );
}
