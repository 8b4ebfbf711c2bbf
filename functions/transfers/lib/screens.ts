import { APP_NAME, SHARE_IMAGE_URL } from '../../../shared/constants';
import type { Seo } from '../../../shared/schemas/common';

export const TRANSFER_APP_NAME = `${APP_NAME} Transfer`;

export const transferHomeSeo: Seo = {
  title: `${TRANSFER_APP_NAME}: send large files`,
  description:
    'Send files of up to 2 GB to up to 50 people, free. They download each file or all of them as one zip, and tell you what they like.',
  keywords: ['file transfer', 'send large files', 'share files', 'zip download'],
  imageUrl: SHARE_IMAGE_URL,
};

export function senderSeo(name: string): Seo {
  return {
    title: `${name} on ${TRANSFER_APP_NAME}`,
    description: `${name} sends files with ${TRANSFER_APP_NAME}.`,
    keywords: ['file transfer', name],
    imageUrl: SHARE_IMAGE_URL,
  };
}

export function packageSeo(title: string, senderName: string): Seo {
  return {
    title: `${title || 'Files'} from ${senderName} · ${TRANSFER_APP_NAME}`,
    description: `Files ${senderName} sent you with ${TRANSFER_APP_NAME}.`,
    keywords: [],
    imageUrl: SHARE_IMAGE_URL,
  };
}
