import { useId } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { AttentionSource } from '@shared/schemas/suggestions';
import { Spinner } from '../../../components/spinner';
import { ErrorState } from '../../../components/state-message';
import { useSourcesNeedingAttention } from '../api/list-sources-needing-attention';
import { formatExact, formatRelative } from '../lib/format';
import { publicationPath } from '../lib/paths';
import styles from './suggestion.module.css';

const STATUS_WORDS: Record<AttentionSource['status'], string> = {
  flagged: 'Flagged: failing for a week',
  gone: 'Gone: off the boards',
  failing: 'Failing',
};

/**
 * For moderators: the publications the collector could not read lately, with why, so a flagged
 * one (a week of failures) or a gone one (a week of 404s) gets a person's look.
 */
export function SourcesNeedingAttention() {
  const id = useId();
  const attention = useSourcesNeedingAttention(true);

  let content;
  if (attention.isPending) {
    content = <Spinner label="Loading the sources" />;
  } else if (attention.isError) {
    content = (
      <ErrorState title="The sources could not be loaded" error={attention.error} onRetry={() => void attention.refetch()} />
    );
  } else {
    const { sources, counts } = attention.data;
    const total = counts.flagged + counts.gone + counts.failing;
    content =
      total === 0 ? (
        <p className={styles.note}>Every publication was read at its last collection.</p>
      ) : (
        <>
          <p className={styles.note}>
            {`${formatExact(counts.flagged)} flagged, ${formatExact(counts.gone)} gone, ${formatExact(counts.failing)} failing`}
            {sources.length < total ? ` (${formatExact(sources.length)} of them listed).` : '.'}
          </p>
          <table className={styles.report}>
            <caption className="visually-hidden">Publications the collector could not read</caption>
            <thead>
              <tr>
                <th scope="col">Publication</th>
                <th scope="col">State</th>
                <th scope="col">Why</th>
                <th scope="col">Last read</th>
              </tr>
            </thead>
            <tbody>
              {sources.map((source) => (
                <tr key={source.slug}>
                  <td>
                    <Link to={publicationPath(source.slug)}>{source.name ?? source.slug}</Link>
                    <br />
                    <a href={source.url}>{source.url}</a>
                  </td>
                  <td>
                    {STATUS_WORDS[source.status]}
                    {source.failingSince ? ` since ${formatRelative(source.failingSince)}` : ''}
                  </td>
                  <td>{source.lastError ?? 'No reason was recorded'}</td>
                  <td>{source.lastCollectedAt ? formatRelative(source.lastCollectedAt) : 'Never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.subtitle}>
        Sources that need a look
      </h2>
      {content}
    </section>
  );
}
