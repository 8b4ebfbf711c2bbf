import { type CSSProperties, type FormEvent, useId, useState } from 'react';
import { PRODUCT_DESCRIPTION_MAX, PRODUCT_TITLE_MAX, updateProductDisplayBodySchema } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { ImageView, Money, ProductStockView } from '../api/merchant-keys';
import { useUpdateProductDisplay } from '../api/update-product-display';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { formatMoney } from '../lib/format';
import { ProductImagesField } from './product-images-field';
import { EditorSection, PositionField, readPosition } from './editor-section';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

const FIELDS = ['title', 'description', 'imageFileIds', 'tagline', 'accentColor', 'featured', 'position'] as const;
type Field = (typeof FIELDS)[number];

/** The brand colour: what a product without an accent colour of its own is drawn in. */
const DEFAULT_ACCENT = '#0f6e56';

export interface ProductLook {
  title: string;
  tagline: string;
  description: string;
  image: ImageView | undefined;
  accentColor: string | null;
  featured: boolean;
  priceFrom: Money | null;
}

/**
 * The product's card as the shop will show it, drawn from what is typed (not what is saved), so
 * the merchant sees a change before making it.
 */
export function ProductPreview({ look }: { look: ProductLook }) {
  const style = look.accentColor ? ({ '--accent': look.accentColor } as CSSProperties) : undefined;
  return (
    <article className={styles.productCard} style={style} data-featured={look.featured || undefined}>
      {look.image ? (
        <img className={styles.productImage} src={look.image.url} alt="" />
      ) : (
        <div className={styles.productImageEmpty}>No image</div>
      )}
      <div className={styles.cardBody}>
        {look.featured ? (
          <span className={styles.badge} data-tone="positive">
            Featured
          </span>
        ) : null}
        <p className={styles.cardTitle}>{look.title.trim() || 'Untitled product'}</p>
        {look.tagline.trim() ? <p className={styles.cardTagline}>{look.tagline.trim()}</p> : null}
        {look.description.trim() ? <p className={styles.cardText}>{look.description.trim()}</p> : null}
        <p className={styles.cardPrice}>{look.priceFrom ? `From ${formatMoney(look.priceFrom)}` : 'No grade on sale yet'}</p>
      </div>
    </article>
  );
}

/**
 * A product's title, description, images and look in the shop (tagline, accent colour, featured,
 * position), with its card beside the form as it will look once saved.
 */
export function ProductEditor({ userId, product }: { userId: string; product: ProductStockView }) {
  const accentId = useId();
  const update = useUpdateProductDisplay(userId, product.id);
  const [title, setTitle] = useState(product.title);
  const [description, setDescription] = useState(product.description);
  const [images, setImages] = useState<ImageView[]>(product.images);
  const [tagline, setTagline] = useState(product.display.tagline ?? '');
  const [accentColor, setAccentColor] = useState<string | null>(product.display.accentColor);
  const [featured, setFeatured] = useState(product.display.featured);
  const [position, setPosition] = useState(String(product.display.position));
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || uploading) return;
    const order = readPosition(position);
    if ('error' in order) {
      setErrors({ fields: { position: order.error } });
      return;
    }
    const checked = updateProductDisplayBodySchema.safeParse({
      title,
      description,
      imageFileIds: images.map((image) => image.fileId),
      // The API cannot take an accent colour away once set, only change it: none is sent until one is chosen.
      display: { tagline, featured, position: order.position, ...(accentColor ? { accentColor } : {}) },
    });
    if (!checked.success) {
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    setErrors({ fields: {} });
    update.mutate(checked.data, {
      onSuccess: () => toast.success('Product saved'),
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  return (
    <EditorSection
      title="Product details"
      onSubmit={submit}
      previewLabel="Preview in your shop"
      preview={
        <ProductPreview
          look={{ title, tagline, description, image: images[0], accentColor, featured, priceFrom: product.priceFrom }}
        />
      }
    >
      <TextField
        label="Title"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        maxLength={PRODUCT_TITLE_MAX}
        error={errors.fields.title}
      />
      <TextField
        label="Tagline"
        value={tagline}
        onChange={(event) => setTagline(event.target.value)}
        maxLength={120}
        hint="A line under the title in your shop."
        error={errors.fields.tagline}
      />
      <TextArea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        maxLength={PRODUCT_DESCRIPTION_MAX}
        rows={5}
        error={errors.fields.description}
      />
      <ProductImagesField images={images} onChange={setImages} onUploadingChange={setUploading} />
      <div className={styles.fieldGrid}>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={accentId}>
            Accent colour
          </label>
          <input
            id={accentId}
            className={styles.colour}
            type="color"
            value={accentColor ?? DEFAULT_ACCENT}
            onChange={(event) => setAccentColor(event.target.value)}
            aria-describedby={`${accentId}-hint`}
          />
          <p id={`${accentId}-hint`} className={styles.hint}>
            {accentColor ? `The card’s top edge: ${accentColor}.` : 'None yet: the card uses the site’s colour.'}
          </p>
          {errors.fields.accentColor ? <p className={fieldStyles.error}>{errors.fields.accentColor}</p> : null}
        </div>
        <PositionField
          value={position}
          onChange={setPosition}
          hint="Order in your shop: lower comes first."
          error={errors.fields.position}
        />
      </div>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={featured} onChange={(event) => setFeatured(event.target.checked)} />
        <span>Featured: shown first, and larger, in your shop</span>
      </label>
      <FormAlert message={errors.form ?? errors.fields.imageFileIds ?? errors.fields.featured} />
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={update.isPending || uploading} aria-busy={update.isPending}>
          {update.isPending ? 'Saving…' : uploading ? 'Waiting for the images…' : 'Save product'}
        </Button>
      </div>
    </EditorSection>
  );
}
