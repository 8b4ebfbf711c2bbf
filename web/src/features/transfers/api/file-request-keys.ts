export type { FileRequestView, PublicFileRequest, RequestUploadView } from '@shared/schemas/file-requests';

/**
 * Query keys of file requests, under ['transfers', 'requests']: a requester's list carries their
 * id; a request's public page and an upload are keyed by their ids (the link and the grant are
 * what open them).
 */
export const fileRequestKeys = {
  all: ['transfers', 'requests'] as const,
  own: (userId: string) => ['transfers', 'requests', 'own', userId] as const,
  public: (id: string) => ['transfers', 'requests', 'public', id] as const,
  upload: (id: string) => ['transfers', 'requests', 'upload', id] as const,
};
