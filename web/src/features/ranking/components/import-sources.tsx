import { useId, useMemo, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { ImportResult } from '@shared/schemas/suggestions';
import { Button } from '../../../components/button';
import { useImportSources } from '../api/import-sources';
import { type AddressList, MAX_IMPORT_ADDRESSES, parseAddressList, reportCsv } from '../lib/address-list';
import { formatExact, plural } from '../lib/format';
import { publicationPath } from '../lib/paths';
import fieldStyles from '../../../components/field.module.css';
import styles from './suggestion.module.css';

const OUTCOME_WORDS: Record<ImportResult['outcome'], string> = {
  added: 'Added',
  known: 'Already known',
  failed: 'Not added',
};

/**
 * A moderator's bulk import: a text or CSV file of publication addresses, added without review a
 * few at a time, with a report of what was added, what was known already, and what failed and why.
 */
export function ImportSources() {
  const id = useId();
  const [list, setList] = useState<(AddressList & { fileName: string }) | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const run = useImportSources();
  const results = run.progress?.results ?? [];

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.subtitle}>
        Import a list
      </h2>
      <p className={styles.note}>
        A text file with one address a line, or a CSV file with the addresses in its first column: up to{' '}
        {formatExact(MAX_IMPORT_ADDRESSES)}. They are added without review.
      </p>
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          if (list && list.urls.length > 0) run.mutate(list.urls);
        }}
      >
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={`${id}-file`}>
            File of addresses
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            disabled={run.isPending}
            onChange={(event) => {
              const file = event.target.files?.[0];
              setList(null);
              setReadError(null);
              run.reset();
              if (!file) return;
              file.text().then(
                (text) => setList({ ...parseAddressList(text), fileName: file.name }),
                () => setReadError('That file could not be read.'),
              );
            }}
          />
        </div>
        {readError ? (
          <p className={fieldStyles.alert} role="alert">
            {readError}
          </p>
        ) : null}
        {list ? <p className={styles.note}>{listSummary(list)}</p> : null}
        <div className={styles.row}>
          <Button type="submit" disabled={!list || list.urls.length === 0 || run.isPending} aria-busy={run.isPending}>
            {run.isPending ? 'Importing…' : 'Import'}
          </Button>
        </div>
      </form>
      {run.progress ? (
        <div className={styles.form}>
          <label className={styles.note} htmlFor={`${id}-progress`}>
            {`${formatExact(run.progress.done)} of ${formatExact(run.progress.total)} addresses imported`}
          </label>
          <progress id={`${id}-progress`} max={run.progress.total} value={run.progress.done} />
          {run.isError ? (
            <p className={fieldStyles.alert} role="alert">
              {`The import stopped: ${run.error.message || 'try again'}. What is listed below was done.`}
            </p>
          ) : null}
          {results.length > 0 ? <ImportReport results={results} finished={!run.isPending} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function listSummary(list: AddressList & { fileName: string }): string {
  const parts = [`${list.fileName}: ${plural(list.urls.length, 'address', 'addresses')} to import`];
  if (list.skippedLines > 0) parts.push(`${plural(list.skippedLines, 'line')} without an address skipped`);
  if (list.leftOut > 0) parts.push(`${formatExact(list.leftOut)} past the first ${formatExact(MAX_IMPORT_ADDRESSES)} left out`);
  return `${parts.join('; ')}.`;
}

function ImportReport({ results, finished }: { results: ImportResult[]; finished: boolean }) {
  const counts = { added: 0, known: 0, failed: 0 };
  for (const result of results) counts[result.outcome] += 1;
  const csvHref = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(results, window.location.origin))}`,
    [results],
  );
  return (
    <>
      <p role="status">
        {`${formatExact(counts.added)} added, ${formatExact(counts.known)} already known, ${formatExact(counts.failed)} not added.`}
        {finished ? (
          <>
            {' '}
            <a href={csvHref} download="import-report.csv">
              Download the report (CSV)
            </a>
          </>
        ) : null}
      </p>
      <table className={styles.report}>
        <caption className="visually-hidden">What became of each address</caption>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Outcome</th>
            <th scope="col">Publication or reason</th>
          </tr>
        </thead>
        <tbody>
          {results.map((result) => (
            <tr key={result.url}>
              <td>{result.url}</td>
              <td>{OUTCOME_WORDS[result.outcome]}</td>
              <td>
                {result.slug ? <Link to={publicationPath(result.slug)}>{result.name ?? result.slug}</Link> : result.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
