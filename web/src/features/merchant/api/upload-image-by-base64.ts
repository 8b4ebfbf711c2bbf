import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const uploadImageByBase64Endpoint = endpoint<typeof routes.uploadImageByBase64>('POST', '/api/i/file/file/upload/by/base64');

/**
 * Stores an image the person chose (a data: url, as FileReader reads it), recognised by the
 * server from its bytes; answers the ready file and a url to show it.
 */
export function uploadImageByBase64(dataUrl: string, name: string) {
  return uploadImageByBase64Endpoint({ body: { dataBase64: dataUrl, name } });
}

/** Nothing to refetch: a new file is only used once a form that names it is saved. */
export function useUploadImageByBase64() {
  return useMutation({
    mutationFn: ({ dataUrl, name }: { dataUrl: string; name: string }) => uploadImageByBase64(dataUrl, name),
  });
}
