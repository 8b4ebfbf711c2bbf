import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { createProductBodySchema, MAX_PRODUCT_IMAGES, VISIBILITIES } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { DialogFrame } from '../../../components/dialog-frame';
import { toast } from '../../../lib/toast';
import { useCreateProductStock } from '../api/create-product-stock';
import type { ImageView, Visibility } from '../api/merchant-keys';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { PRODUCT_VISIBILITY_HINTS, VISIBILITY_NAMES } from '../lib/format';
import { merchantProductPath } from '../lib/paths';
import { ImagePicker } from './image-picker';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';
import styles from './merchant.module.css';

const FIELDS = ['title', 'description', 'imageFileIds', 'visibility'] as const;
type Field = (typeof FIELDS)[number];

/**
 * A new product: title, description, images and who sees it (a private draft unless chosen
 * otherwise). Once made, its page opens, where its grades are added and its look is set.
 */
export function NewProductDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const create = useCreateProductStock(userId);
  const navigate = useNavigate();
  const visibilityName = useId();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [images, setImages] = useState<ImageView[]>([]);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || uploading) return;
    const checked = createProductBodySchema.safeParse({
      title,
      description,
      imageFileIds: images.map((image) => image.fileId),
      visibility,
    });
    if (!checked.success) {
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    setErrors({ fields: {} });
    create.mutate(checked.data, {
      onSuccess: (product) => {
        toast.success(`${product.title} is created`);
        onClose();
        void navigate(merchantProductPath(product.id));
      },
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  return (
    <DialogFrame
      title="New product"
      description="Add its grades and set its look on the next page. Everything here can be changed later."
      onClose={onClose}
      wide
    >
      <form className={styles.form} onSubmit={submit} noValidate aria-label="New product">
        <TextField
          label="Title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          maxLength={120}
          error={errors.fields.title}
        />
        <TextArea
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={5000}
          rows={4}
          error={errors.fields.description}
        />
        <ImagePicker
          label="Images"
          images={images}
          onChange={setImages}
          max={MAX_PRODUCT_IMAGES}
          onUploadingChange={setUploading}
          hint={`Up to ${MAX_PRODUCT_IMAGES}. The first is the one shown in your shop.`}
        />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Visibility</legend>
          <div className={styles.choices}>
            {VISIBILITIES.map((value) => (
              <label key={value} className={styles.choice}>
                <input
                  type="radio"
                  name={visibilityName}
                  value={value}
                  checked={visibility === value}
                  onChange={() => setVisibility(value)}
                />
                <span className={styles.choiceText}>
                  <span className={styles.choiceName}>{VISIBILITY_NAMES[value]}</span>
                  <span className={styles.choiceDetail}>{PRODUCT_VISIBILITY_HINTS[value]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FormAlert message={errors.form ?? errors.fields.imageFileIds ?? errors.fields.visibility} />
        <div className={styles.actions}>
          <Dialog.Close asChild>
            <Button variant="secondary">Cancel</Button>
          </Dialog.Close>
          <Button type="submit" disabled={create.isPending || uploading} aria-busy={create.isPending}>
            {create.isPending ? 'Creating…' : uploading ? 'Waiting for the images…' : 'Create product'}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}
