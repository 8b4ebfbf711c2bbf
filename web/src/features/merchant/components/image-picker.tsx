import { type ChangeEvent, type Dispatch, type SetStateAction, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { formatBytes } from '../../../lib/format-bytes';
import type { ImageView } from '../api/merchant-keys';
import { useUploadImageByBase64 } from '../api/upload-image-by-base64';
import { errorMessage } from '../lib/form-errors';
import { IMAGE_ACCEPT, MAX_IMAGE_BYTES, readImageFile } from '../lib/read-image-file';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

/**
 * What the picker's button says, and the line beside it naming what is chosen: the browser's own
 * file input says "No file chosen" even once the image is uploaded and shown, so it is hidden
 * (visually only: it keeps the focus, the label and the keyboard) behind these words.
 */
export function pickerWords({
  label,
  single,
  count,
  max,
  names,
}: {
  label: string;
  single: boolean;
  /** The images chosen now. */
  count: number;
  max: number;
  /** The files chosen last on this page, by name: images kept from before have none. */
  names: readonly string[];
}): { button: string; status: string } {
  const noun = label.toLowerCase();
  if (single) {
    if (!count) return { button: `Choose ${noun}…`, status: `No ${noun} chosen` };
    return { button: `Replace ${noun}`, status: names[0] ? `Chosen: ${names[0]}` : `${label} chosen` };
  }
  const button = count ? 'Add images…' : 'Choose images…';
  if (!count) return { button, status: 'No images chosen' };
  const tally = `${count} of ${max} images chosen`;
  if (count >= max) return { button, status: `${tally}: remove one to add another` };
  return { button, status: names.length ? `${tally}, last ${names.join(', ')}` : tally };
}

/**
 * Images chosen from the device, each uploaded as soon as it is chosen (read as base64 in the
 * browser, stored by the file upload route), shown with a way to take it out again. The form
 * saves only the file ids: `onUploadingChange` tells it to wait while an upload runs.
 */
export function ImagePicker({
  label,
  images,
  onChange,
  max,
  onUploadingChange,
  hint,
}: {
  label: string;
  images: readonly ImageView[];
  onChange: Dispatch<SetStateAction<ImageView[]>>;
  /** 1 for a logo: a new choice replaces the image. */
  max: number;
  onUploadingChange?: (uploading: boolean) => void;
  hint?: string | undefined;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const labelId = `${id}-label`;
  const statusId = `${id}-chosen`;
  /** The names of the files chosen last, for the line beside the button. */
  const [names, setNames] = useState<string[]>([]);
  const upload = useUploadImageByBase64();
  const [uploading, setUploading] = useState(0);
  // The count as of now, for the callbacks of uploads that end one after another.
  const running = useRef(0);
  const [problems, setProblems] = useState<string[]>([]);
  const single = max === 1;
  const room = single ? 1 : max - images.length;

  const track = (delta: number) => {
    running.current += delta;
    setUploading(running.current);
    onUploadingChange?.(running.current > 0);
  };

  const uploadOne = async (file: File) => {
    if (file.size > MAX_IMAGE_BYTES) {
      throw new Error(`${file.name} is ${formatBytes(file.size)}: an image can be at most ${formatBytes(MAX_IMAGE_BYTES)}.`);
    }
    const dataUrl = await readImageFile(file);
    const stored = await upload.mutateAsync({ dataUrl, name: file.name });
    const image = { fileId: stored.file.id, url: stored.url };
    onChange((current) => (single ? [image] : current.length < max ? [...current, image] : current));
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Emptied so that choosing the same file again (after removing it) is a change too.
    event.target.value = '';
    if (!files.length) return;
    const taken = files.slice(0, Math.max(room, 0));
    const refused = files.length - taken.length;
    setNames(taken.map((file) => file.name));
    setProblems(refused > 0 ? [`At most ${max} images: ${refused === 1 ? 'one was' : `${refused} were`} left out.`] : []);
    for (const file of taken) {
      track(1);
      uploadOne(file)
        .catch((error: unknown) =>
          setProblems((current) => [...current, `${file.name} could not be uploaded: ${errorMessage(error)}`]),
        )
        .finally(() => track(-1));
    }
  };

  const words = pickerWords({ label, single, count: images.length, max, names });

  const remove = (index: number) => onChange((current) => current.filter((_, position) => position !== index));

  return (
    <div className={fieldStyles.field}>
      <span id={labelId} className={fieldStyles.label}>
        {label}
      </span>
      {images.length ? (
        <ul className={styles.images} aria-label={`${label}: chosen`}>
          {images.map((image, index) => (
            <li key={image.fileId} className={styles.image}>
              <img src={image.url} alt={single ? label : `Image ${index + 1}`} />
              <Button variant="ghost" size="small" onClick={() => remove(index)}>
                Remove<span className="visually-hidden"> {single ? label.toLowerCase() : `image ${index + 1}`}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className={styles.filePicker}>
        {/* The input keeps the focus and the field's name; the label in its place looks like a button and opens it. */}
        <input
          id={id}
          className={`${styles.fileInput} visually-hidden`}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple={!single}
          disabled={room <= 0}
          onChange={choose}
          aria-labelledby={labelId}
          aria-describedby={[statusId, hint ? hintId : null].filter(Boolean).join(' ')}
        />
        <label htmlFor={id} className={styles.fileButton} aria-hidden="true" data-disabled={room <= 0 || undefined}>
          {words.button}
        </label>
        <span id={statusId} className={styles.fileStatus}>
          {words.status}
        </span>
      </div>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <p className={styles.hint} role="status">
        {uploading > 0 ? `Uploading ${uploading === 1 ? 'an image' : `${uploading} images`}…` : ''}
      </p>
      {problems.length ? (
        <div className={pageStyles.alert} role="alert">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
