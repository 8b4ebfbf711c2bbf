/** The top bar's main links, in the order they are shown. */
export const MAIN_LINKS = [
  { to: '/active', label: 'Active' },
  { to: '/topics', label: 'Topics' },
  { to: '/growing', label: 'Top Growing' },
  { to: '/stories', label: 'Stories' },
] as const;
