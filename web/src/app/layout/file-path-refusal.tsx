import { PrefetchLink as Link } from '../../components/prefetch-link';
import { buttonClassName } from '../../components/button';
import { EmptyState } from '../../components/state-message';
import { filePathMessage } from '../../lib/file-path';

/** Shown instead of the page when the path asks for a file that is not there: a clear message, not an empty page. */
export function FilePathRefusal({ path }: { path: string }) {
  return (
    <EmptyState title={filePathMessage(path)} icon="?" level={1}>
      <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
        Go to the rankings
      </Link>
    </EmptyState>
  );
}
