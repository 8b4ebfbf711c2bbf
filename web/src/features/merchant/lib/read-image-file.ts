/** The largest image the server stores by base64 (shared/routes/transfers.ts: 4 MiB). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** The image types the server recognises; SVG is refused there, so it is not offered here. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/avif';

/** A chosen file as a data: url (base64), as the upload route takes it. */
export function readImageFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });
}
