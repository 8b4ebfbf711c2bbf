import { type ComponentType, type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '../../components/icons';
import type { SearchSuggestProps } from '../../features/ranking/components/search-suggest';
import styles from './top-bar.module.css';

// The combobox (downshift) arrives when the box is first approached, keeping it out of the first load.
const loadSearchSuggest = () => import('../../features/ranking/components/search-suggest');

function searchAddress(words: string): string {
  const q = words.trim();
  return q ? `/search?${new URLSearchParams({ q }).toString()}` : '/search';
}

/**
 * The top bar's search box. Until its code has arrived a plain input stands in (same look, same
 * name, a working search on Enter); pointing at it or focusing it downloads the suggesting
 * combobox, which takes the plain input's place in the same render, with what was typed and the
 * focus, so no keystroke is lost while the code is on its way. Should the download fail, the
 * plain input stays.
 */
export function TopBarSearch() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [SearchSuggest, setSearchSuggest] = useState<ComponentType<SearchSuggestProps> | null>(null);
  // Whether the plain input has the focus: then the combobox replacing it takes the focus over.
  const [plainFocused, setPlainFocused] = useState(false);
  const loading = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    loadSearchSuggest().then(
      (module) => setSearchSuggest(() => module.SearchSuggest),
      () => {
        // Tried again on the next approach; until then the plain box searches.
        loading.current = false;
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(searchAddress(value));
    setValue('');
  };

  return (
    <form role="search" aria-label="Publications" action="/search" className={styles.searchForm} onSubmit={submit}>
      <span className={styles.searchIcon} aria-hidden="true">
        <SearchIcon size={16} />
      </span>
      {SearchSuggest ? (
        <SearchSuggest
          value={value}
          onValueChange={setValue}
          onDone={() => setValue('')}
          inputClassName={styles.searchInput}
          autoFocus={plainFocused}
        />
      ) : (
        <input
          type="search"
          role="combobox"
          aria-expanded={false}
          aria-autocomplete="list"
          name="q"
          className={styles.searchInput}
          placeholder="Search publications"
          aria-label="Search publications"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onPointerEnter={load}
          onFocus={() => {
            setPlainFocused(true);
            load();
          }}
          onBlur={() => setPlainFocused(false)}
        />
      )}
    </form>
  );
}
