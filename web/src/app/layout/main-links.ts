/** The top bar's main links (SPEC.md section 2). */
export const MAIN_LINKS = [
  { to: '/active', label: 'Active' },
  { to: '/topics', label: 'Topics' },
  { to: '/growing', label: 'Top Growing' },
] as const;
