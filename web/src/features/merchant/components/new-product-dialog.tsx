import { useState } from 'react';
import { useNavigate } from 'react-router';
import { createProductBodySchema, PRODUCT_DESCRIPTION_MAX, PRODUCT_TITLE_MAX, VISIBILITIES } from '@shared/schemas/merchant';
import { FormDialog } from '../../../components/form-dialog';
import { toast } from '../../../lib/toast';
import { useCreateProductStock } from '../api/create-product-stock';
import type { ImageView, Visibility } from '../api/merchant-keys';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { PRODUCT_VISIBILITY_HINTS, VISIBILITY_NAMES } from '../lib/format';
import { merchantProductPath } from '../lib/paths';
import { ChoiceFieldset } from './choice-fieldset';
import { ProductImagesField } from './product-images-field';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';

const FIELDS = ['title', 'description', 'imageFileIds', 'visibility'] as const;
type Field = (typeof FIELDS)[number];

/**
 * A new product: title, description, images and who sees it (a private draft unless chosen
 * otherwise). Once made, its page opens, where its grades are added and its look is set.
 */
export function NewProductDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const create = useCreateProductStock(userId);
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [images, setImages] = useState<ImageView[]>([]);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = () => {
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
    <FormDialog
      title="New product"
      description="Add its grades and set its look on the next page. Everything here can be changed later."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create product"
      pendingLabel="Creating…"
      pending={create.isPending}
      waitingLabel={uploading ? 'Waiting for the images…' : null}
    >
      <TextField
        label="Title"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        maxLength={PRODUCT_TITLE_MAX}
        error={errors.fields.title}
      />
      <TextArea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        maxLength={PRODUCT_DESCRIPTION_MAX}
        rows={4}
        error={errors.fields.description}
      />
      <ProductImagesField images={images} onChange={setImages} onUploadingChange={setUploading} />
      <ChoiceFieldset
        legend="Visibility"
        choices={VISIBILITIES.map((value) => ({ value, name: VISIBILITY_NAMES[value], detail: PRODUCT_VISIBILITY_HINTS[value] }))}
        value={visibility}
        onChange={setVisibility}
      />
      <FormAlert message={errors.form ?? errors.fields.imageFileIds ?? errors.fields.visibility} />
    </FormDialog>
  );
}
