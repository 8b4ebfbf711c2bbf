import { useCombobox } from 'downshift';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { CloseIcon } from '../../../components/icons';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useContacts } from '../api/list-contacts';
import type { Contact } from '../api/transfer-keys';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './transfers.module.css';

/** Typing pauses this long before contacts are asked for. */
export const CONTACTS_DEBOUNCE_MS = 200;

/** Where an address came from: typed (or pasted) by the sender, or picked from their contacts. */
export type RecipientSource = 'typed' | 'contact';

/** Addresses pasted or typed in a row, split on commas, semicolons and spaces. */
export function splitAddresses(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Recipients by email: a combobox (WAI-ARIA 1.2, through downshift) that suggests the people the
 * sender has sent to before as they type, and the chosen addresses as a list with a remove
 * button each. Enter, a comma or the Add button adds what was typed; a pasted list adds each.
 */
export function RecipientsField({
  userId,
  recipients,
  value,
  onValueChange,
  onAdd,
  onRemove,
  error,
  disabled = false,
  full = false,
}: {
  userId: string;
  recipients: readonly string[];
  /** What is typed in the box (the form adds it on Send too). */
  value: string;
  onValueChange: (value: string) => void;
  onAdd: (emails: string[], source: RecipientSource, details?: { position: number; shown: number }) => void;
  onRemove: (email: string) => void;
  error?: string | null;
  disabled?: boolean;
  /** The plan's limit is reached: nothing more can be added. */
  full?: boolean;
}) {
  const errorId = useId();
  const q = useDebouncedValue(value.trim().toLowerCase(), CONTACTS_DEBOUNCE_MS);
  const chosen = new Set(recipients.map((email) => email.toLowerCase()));

  const addTyped = () => {
    const emails = splitAddresses(value);
    if (emails.length) onAdd(emails, 'typed');
  };

  // Contacts are asked for once the field is first used, not with every page load.
  const [active, setActive] = useState(false);
  const contacts = useContacts(userId, q, active && !disabled && !full);
  const items = (contacts.data?.contacts ?? []).filter((contact) => !chosen.has(contact.email.toLowerCase()));
  const { getInputProps, getLabelProps, getMenuProps, getItemProps, isOpen, highlightedIndex, openMenu } = useCombobox<Contact>({
    items,
    inputValue: value,
    selectedItem: null,
    itemToString: (contact) => contact?.email ?? '',
    onSelectedItemChange: ({ selectedItem }) => {
      if (!selectedItem) return;
      onAdd([selectedItem.email], 'contact', { position: items.indexOf(selectedItem), shown: items.length });
    },
  });

  const showMenu = isOpen && items.length > 0;

  return (
    <div className={fieldStyles.field}>
      <label {...getLabelProps({ className: fieldStyles.label })}>Recipient email</label>
      <div className={styles.combo}>
        <input
          {...getInputProps({
            type: 'email',
            className: styles.input,
            placeholder: full ? 'No more recipients on this plan' : 'name@example.com',
            autoComplete: 'off',
            enterKeyHint: 'done',
            disabled: disabled || full,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? errorId : undefined,
            onChange: (event) => {
              const next = event.currentTarget.value;
              // A comma, semicolon or space after an address adds it (pasting a list adds them all).
              if (/[,;\s]/.test(next) && splitAddresses(next).length) {
                const parts = next.split(/[,;\s]+/);
                const last = parts.pop() ?? '';
                const complete = parts.map((part) => part.trim()).filter(Boolean);
                if (complete.length) onAdd(complete, 'typed');
                onValueChange(last);
                return;
              }
              onValueChange(next);
            },
            onFocus: () => {
              setActive(true);
              if (!isOpen && !disabled && !full) openMenu();
            },
            onKeyDown: (event) => {
              if (event.key === 'Enter' && highlightedIndex < 0) {
                // Enter with no suggestion highlighted adds the typed address, and never submits the form.
                (event.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
                event.preventDefault();
                addTyped();
              }
            },
          })}
        />
        <Button variant="secondary" onClick={addTyped} disabled={disabled || full || !value.trim()}>
          Add
        </Button>
        <ul {...getMenuProps({ 'aria-label': 'Contacts', className: styles.menu, hidden: !showMenu })}>
          {showMenu
            ? items.map((contact, index) => (
                <li key={contact.email} className={styles.option} {...getItemProps({ item: contact, index })}>
                  <span>{contact.name || contact.email}</span>
                  {contact.name ? <span className={styles.optionMeta}>{contact.email}</span> : null}
                </li>
              ))
            : null}
        </ul>
      </div>
      {error ? (
        <p id={errorId} className={pageStyles.alert} role="alert">
          {error}
        </p>
      ) : null}
      {recipients.length ? (
        <ul className={styles.chips} aria-label="Recipients">
          {recipients.map((email) => (
            <li key={email} className={styles.chip}>
              <span>{email}</span>
              <Button
                variant="ghost"
                iconOnly
                size="small"
                className={styles.chipRemove}
                aria-label={`Remove ${email}`}
                disabled={disabled}
                onClick={() => onRemove(email)}
              >
                <CloseIcon size={14} />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
