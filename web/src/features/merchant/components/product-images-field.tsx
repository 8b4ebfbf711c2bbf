import type { Dispatch, SetStateAction } from 'react';
import { MAX_PRODUCT_IMAGES } from '@shared/schemas/merchant';
import type { ImageView } from '../api/merchant-keys';
import { ImagePicker } from './image-picker';

/** A product's images, as both the new-product dialog and the product editor ask for them. */
export function ProductImagesField({
  images,
  onChange,
  onUploadingChange,
}: {
  images: readonly ImageView[];
  onChange: Dispatch<SetStateAction<ImageView[]>>;
  onUploadingChange: (uploading: boolean) => void;
}) {
  return (
    <ImagePicker
      label="Images"
      images={images}
      onChange={onChange}
      max={MAX_PRODUCT_IMAGES}
      onUploadingChange={onUploadingChange}
      hint={`Up to ${MAX_PRODUCT_IMAGES}. The first is the one shown in your shop.`}
    />
  );
}
