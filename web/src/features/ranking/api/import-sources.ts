import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { IMPORT_BATCH_SIZE, type ImportResult } from '@shared/schemas/suggestions';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const importEndpoint = endpoint<typeof routes.importSources>('POST', '/api/i/toppubs/admin/sources/import');

/** Adds up to IMPORT_BATCH_SIZE addresses; answers what became of each. */
export function importSources(urls: string[], signal?: AbortSignal) {
  return importEndpoint({ body: { urls }, ...(signal ? { signal } : {}) });
}

export interface ImportProgress {
  done: number;
  total: number;
  results: ImportResult[];
}

/**
 * Imports a whole list, a few addresses a call and one call at a time, so that each call stays
 * short and the host of a long list is asked politely. The report grows as calls come back; a
 * call that fails stops the import, keeping what was done.
 */
export function useImportSources() {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const mutation = useMutation({
    mutationKey: ['ranking', 'suggestions', 'import'],
    mutationFn: async (urls: string[]) => {
      const results: ImportResult[] = [];
      setProgress({ done: 0, total: urls.length, results });
      for (let from = 0; from < urls.length; from += IMPORT_BATCH_SIZE) {
        const answer = await importSources(urls.slice(from, from + IMPORT_BATCH_SIZE));
        results.push(...answer.results);
        setProgress({ done: results.length, total: urls.length, results: [...results] });
      }
      return results;
    },
  });
  return { ...mutation, progress };
}
