import { type FormEvent, useState } from 'react';
import { usernameSchema } from '@shared/schemas/account';
import { toast } from '../../../lib/toast';
import type { FullUser } from '../api/account-keys';
import { useUsernameIsFree } from '../api/check-username-is-free';
import { type ProfileChanges, type ProfileField, profileErrors, useUpdateProfile } from '../api/update-profile';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import styles from './account.module.css';
import { SaveActions, Section } from './section';
import { type FieldNote, TextField } from '../../../components/text-field';

/** How long typing must pause before the username is checked. */
export const USERNAME_CHECK_DELAY_MS = 400;

type Errors = Partial<Record<ProfileField | 'form', string>>;

/** Only the fields that differ from the saved user; empty website or image means none. */
export function profileChanges(
  user: FullUser,
  form: { name: string; username: string; websiteUrl: string; imageUrl: string },
): ProfileChanges {
  const changes: ProfileChanges = {};
  const name = form.name.trim();
  const username = form.username.trim();
  const websiteUrl = form.websiteUrl.trim() || null;
  const imageUrl = form.imageUrl.trim() || null;
  if (name !== user.name) changes.name = name;
  if (username !== user.username) changes.username = username;
  if (websiteUrl !== (user.websiteUrl ?? null)) changes.websiteUrl = websiteUrl;
  if (imageUrl !== (user.hasOwnImageUrl ? user.imageUrl : null)) changes.imageUrl = imageUrl;
  return changes;
}

/** Name, username (checked as you type), website and picture. */
export function ProfileSection({ user }: { user: FullUser }) {
  const [form, setForm] = useState({
    name: user.name,
    username: user.username,
    websiteUrl: user.websiteUrl ?? '',
    imageUrl: user.hasOwnImageUrl ? (user.imageUrl ?? '') : '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateProfile();

  const candidate = form.username.trim() && form.username.trim() !== user.username ? form.username.trim() : null;
  const debounced = useDebouncedValue(candidate, USERNAME_CHECK_DELAY_MS);
  const check = useUsernameIsFree(debounced === candidate ? debounced : null);

  // The rules are checked here at once; whether it is free waits for the server.
  const formatProblem = candidate ? usernameSchema.safeParse(candidate).error?.issues[0]?.message : undefined;
  let usernameNote: FieldNote | null = null;
  let usernameBlocks = false;
  if (candidate && !errors.username) {
    usernameBlocks = true;
    if (formatProblem) usernameNote = { text: formatProblem, tone: 'negative' };
    else if (debounced !== candidate || (check.isPending && check.fetchStatus !== 'idle')) usernameNote = { text: 'Checking…' };
    else if (check.data?.isFree) {
      usernameNote = { text: 'Available', tone: 'positive' };
      usernameBlocks = false;
    } else if (check.data) usernameNote = { text: check.data.reason ?? 'This username is not available', tone: 'negative' };
  }
  const [saved, setSaved] = useState(false);

  const changes = profileChanges(user, form);
  const hasChanges = Object.keys(changes).length > 0;

  const edit = (field: ProfileField) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
    setSaved(false);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!hasChanges || usernameBlocks || update.isPending) return;
    setErrors({});
    update.mutate(changes, {
      onSuccess: () => {
        setSaved(true);
        toast.success('Profile saved');
      },
      onError: (error) => setErrors(profileErrors(error)),
    });
  };

  return (
    <Section title="Profile" lede="What others see on your public profile.">
      <form className={styles.form} onSubmit={save} noValidate>
        <div className={styles.grid}>
          <TextField
            label="Name"
            value={form.name}
            onChange={edit('name')}
            autoComplete="name"
            maxLength={80}
            error={errors.name}
          />
          <TextField
            label="Username"
            value={form.username}
            onChange={edit('username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={30}
            note={usernameNote}
            error={errors.username}
          />
          <TextField
            label="Website"
            type="url"
            value={form.websiteUrl}
            onChange={edit('websiteUrl')}
            placeholder="https://example.com"
            error={errors.websiteUrl}
          />
          <TextField
            label="Image URL"
            type="url"
            value={form.imageUrl}
            onChange={edit('imageUrl')}
            placeholder="https://example.com/me.png"
            error={errors.imageUrl}
          />
        </div>
        {errors.form ? (
          <p className={styles.error} role="alert">
            Saving failed: {errors.form}
          </p>
        ) : null}
        <SaveActions label="Save profile" pending={update.isPending} dirty={hasChanges} saved={saved} blocked={usernameBlocks} />
      </form>
    </Section>
  );
}
