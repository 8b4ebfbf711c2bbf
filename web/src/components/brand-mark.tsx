/** The TopPubs mark, the same drawing as /favicon.svg and the share image. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#0f6e56" />
      <path d="M9 22V10h4v12zm5 0V6h4v16zm5 0v-8h4v8z" fill="#fff" />
    </svg>
  );
}
