import { type ReactNode, useMemo, useState } from 'react';
import { previewKindOf } from '@shared/transfers/previews';
import type { PackageFile } from '../api/transfer-keys';
import { OpenPreviewContext } from '../lib/preview-context';
import { ImageLightbox } from './image-lightbox';
import { MediaPreviewDialog } from './media-preview-dialog';
import { TextPreviewDialog } from './text-preview-dialog';

/** The preview a file gets in the page, or null for none (download only). */
export const previewKindOfFile = (file: PackageFile) => previewKindOf({ name: file.name, type: file.type });

/**
 * Around a package's cards: a card's Preview opens its file here, an image in the lightbox (with
 * the package's other images), text, audio, video and PDFs in their own dialog.
 */
export function FilePreviews({ files, children }: { files: readonly PackageFile[]; children: ReactNode }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const images = useMemo(() => files.filter((file) => previewKindOfFile(file) === 'image'), [files]);
  const file = openId ? files.find((one) => one.id === openId) : undefined;
  const close = () => setOpenId(null);

  let dialog: ReactNode = null;
  if (file) {
    const kind = previewKindOfFile(file);
    if (kind === 'image') {
      dialog = <ImageLightbox images={images} startAt={Math.max(0, images.indexOf(file))} onClose={close} />;
    } else if (kind === 'text') {
      dialog = <TextPreviewDialog file={file} onClose={close} />;
    } else if (kind !== 'none') {
      dialog = <MediaPreviewDialog file={file} kind={kind} onClose={close} />;
    }
  }
  return (
    <OpenPreviewContext.Provider value={setOpenId}>
      {children}
      {dialog}
    </OpenPreviewContext.Provider>
  );
}
