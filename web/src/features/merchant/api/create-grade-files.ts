import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';

const createGradeFilesEndpoint = endpoint<typeof routes.createGradeFiles>(
  'POST',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/files',
);

export type DeclaredGradeFile = BodyOf<typeof routes.createGradeFiles>['files'][number];

/** Pending files of the grade, each answered with where its bytes go (the upload client sends them). */
export function createGradeFiles(productStockGradeId: string, files: DeclaredGradeFile[]) {
  return createGradeFilesEndpoint({ params: { productStockGradeId }, body: { files } });
}
