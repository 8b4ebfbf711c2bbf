import { useCombobox } from 'downshift';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { RankedPublication } from '@shared/schemas/ranking';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePublicationSuggestions } from '../api/search-pubs';
import { hasFollowerCount } from '../lib/follower-count';
import { formatCompact, formatExact, plural } from '../lib/format';
import { publicationPath, searchPath } from '../lib/paths';
import { Avatar } from './avatar';
import { FeedOnlyBadge } from './feed-only-badge';
import { HighlightedName } from './highlighted-name';
import styles from './search-suggest.module.css';

/** How long typing pauses before suggestions are asked for: short, since they are cached at the edge. */
export const SUGGEST_DEBOUNCE_MS = 150;

/** An option of the list: a publication, or the last row that opens every result. */
type Suggestion = { kind: 'publication'; publication: RankedPublication } | { kind: 'all'; q: string; total: number };

export interface SearchSuggestProps {
  value: string;
  onValueChange: (value: string) => void;
  /** Called once a suggestion was chosen (the page is on its way). */
  onDone: () => void;
  /** The input's look, shared with the plain input that stands in while this code loads. */
  inputClassName?: string | undefined;
  autoFocus?: boolean;
}

/**
 * The top bar's search box as a combobox (WAI-ARIA 1.2, through downshift): as a name is typed
 * it suggests the most followed matches. Arrow keys move through them, Enter or a click opens
 * the publication's page, and Enter with nothing chosen submits the surrounding form, which
 * opens the full search.
 */
export function SearchSuggest({ value, onValueChange, onDone, inputClassName, autoFocus }: SearchSuggestProps) {
  const navigate = useNavigate();
  const statusId = useId();
  const q = useDebouncedValue(value.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = usePublicationSuggestions(q);
  // Suggestions for earlier words stay until the new ones arrive, but never for an emptied box.
  const data = value.trim() && suggestions.data ? suggestions.data : undefined;
  const items: Suggestion[] = data
    ? [
        ...data.items.map((publication) => ({ kind: 'publication' as const, publication })),
        ...(data.total > 0 ? [{ kind: 'all' as const, q: data.query, total: data.total }] : []),
      ]
    : [];

  const combobox = useCombobox<Suggestion>({
    items,
    inputValue: value,
    // Words typed into the stand-in box before this code arrived: suggest for them at once,
    // as no further keystroke may come to open the list.
    initialIsOpen: Boolean(autoFocus) && value.trim().length > 0,
    // Nothing stays selected: choosing navigates away and the box starts empty again.
    selectedItem: null,
    itemToString: (item) => (item?.kind === 'publication' ? item.publication.name : ''),
    onSelectedItemChange: ({ selectedItem }) => {
      if (!selectedItem) return;
      void navigate(
        selectedItem.kind === 'publication'
          ? publicationPath(selectedItem.publication.slug)
          : searchPath({ q: selectedItem.q, activeOnly: false, topic: null }),
      );
      onDone();
    },
  });
  const { isOpen, highlightedIndex } = combobox;

  const typed = value.trim().length > 0;
  let status: string | null = null;
  if (typed && suggestions.isError && !data) status = 'Suggestions are unavailable. Press Enter to search.';
  else if (typed && !data) status = 'Searching…';
  else if (data && data.total === 0) status = `No publications match "${data.query}"`;
  const showPopup = isOpen && typed && (items.length > 0 || status !== null);

  return (
    <>
      <input
        {...combobox.getInputProps({
          type: 'search',
          name: 'q',
          className: inputClassName,
          placeholder: 'Search publications',
          'aria-label': 'Search publications',
          'aria-describedby': status ? statusId : undefined,
          autoComplete: 'off',
          enterKeyHint: 'search',
          maxLength: 100,
          autoFocus,
          // What is typed goes up in the keystroke's own event, not in downshift's later
          // onInputValueChange: that one comes a render late, and the render between writes the
          // old words back into the box, which moves the caret to the end and loses the next key
          // a fast typist presses (downshift issue #1108). Moving through the options changes
          // nothing here, so their names never land in the box.
          onChange: (event) => onValueChange(event.currentTarget.value),
          onKeyDown: (event) => {
            // Enter with no option highlighted is a search for the words: the form submits.
            if (event.key === 'Enter' && highlightedIndex < 0) {
              (event.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
            }
          },
        })}
      />
      <div className={styles.popup} hidden={!showPopup}>
        <ul {...combobox.getMenuProps({ 'aria-label': 'Suggested publications', className: styles.list })}>
          {showPopup
            ? items.map((item, index) => (
                <li
                  key={item.kind === 'publication' ? item.publication.slug : 'all'}
                  className={styles.option}
                  {...combobox.getItemProps({ item, index })}
                >
                  {item.kind === 'publication' ? (
                    <>
                      <Avatar
                        name={item.publication.name}
                        seed={item.publication.slug}
                        imageUrl={item.publication.imageUrl}
                        size={32}
                      />
                      <span className={styles.name}>
                        <HighlightedName name={item.publication.name} highlight={data?.query} />
                      </span>
                      {hasFollowerCount(item.publication) ? (
                        <span className={styles.followers} title={`${formatExact(item.publication.followers)} followers`}>
                          {`${formatCompact(item.publication.followers)} followers`}
                        </span>
                      ) : (
                        <FeedOnlyBadge />
                      )}
                    </>
                  ) : (
                    <span className={styles.all}>{`See all ${plural(item.total, 'result')} for "${item.q}"`}</span>
                  )}
                </li>
              ))
            : null}
        </ul>
        {status && showPopup ? (
          <p id={statusId} className={styles.status} role="status">
            {status}
          </p>
        ) : null}
      </div>
    </>
  );
}
