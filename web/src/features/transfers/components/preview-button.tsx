import { previewKindOf } from '@shared/transfers/previews';
import { Button } from '../../../components/button';
import type { PackageFile } from '../api/transfer-keys';
import { useOpenPreview } from '../lib/preview-context';

/** Preview, on a card whose file has a preview, inside FilePreviews. */
export function PreviewButton({ file }: { file: PackageFile }) {
  const open = useOpenPreview();
  if (!open || previewKindOf({ name: file.name, type: file.type }) === 'none') return null;
  return (
    <Button variant="secondary" size="small" aria-label={`Preview ${file.name}`} onClick={() => open(file.id)}>
      Preview
    </Button>
  );
}
