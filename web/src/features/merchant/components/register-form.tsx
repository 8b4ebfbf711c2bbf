import { type FormEvent, useId, useState } from 'react';
import { registerMerchantBodySchema, SHOP_CURRENCIES, type ShopCurrency } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import type { ImageView } from '../api/merchant-keys';
import { useRegisterMerchant } from '../api/register-merchant';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { currencyLabel } from '../lib/format';
import { shopPath } from '../lib/paths';
import { ImagePicker } from './image-picker';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

const FIELDS = ['shopName', 'handle', 'currency', 'description', 'logoFileId'] as const;
type Field = (typeof FIELDS)[number];

/** A shop name as an address: "Café Noir & Co." → "cafe-noir-co", "Jane’s Prints" → "janes-prints". */
export function suggestHandle(shopName: string): string {
  return shopName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f'’ʼ]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 30)
    .replace(/-+$/, '');
}

/**
 * Opening a shop: its name, its address (suggested from the name until edited, the resulting
 * address shown as it is typed), the currency it sells in, a description and a logo. Checked
 * here with the API's own schema first; the server's refusals show beside the form.
 */
export function RegisterForm({ userId, onRegistered }: { userId: string; onRegistered: () => void }) {
  const register = useRegisterMerchant(userId, onRegistered);
  const currencyId = useId();
  const [shopName, setShopName] = useState('');
  const [handle, setHandle] = useState('');
  const [handleEdited, setHandleEdited] = useState(false);
  const [currency, setCurrency] = useState<ShopCurrency>('USD');
  const [description, setDescription] = useState('');
  const [logo, setLogo] = useState<ImageView[]>([]);
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const shownHandle = handleEdited ? handle : suggestHandle(shopName);
  const address = `${window.location.host}${shopPath(shownHandle.trim().toLowerCase() || 'your-shop')}`;

  const clear = (field: Field) => setErrors((current) => ({ fields: { ...current.fields, [field]: undefined } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending || uploading) return;
    const checked = registerMerchantBodySchema.safeParse({
      shopName,
      handle: shownHandle,
      currency,
      description,
      ...(logo[0] ? { logoFileId: logo[0].fileId } : {}),
    });
    if (!checked.success) {
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    setErrors({ fields: {} });
    register.mutate(checked.data, { onError: (error) => setErrors(formErrors(error, FIELDS)) });
  };

  return (
    <form className={pageStyles.card} onSubmit={submit} noValidate aria-label="Open your shop">
      <div className={styles.fieldGrid}>
        <TextField
          label="Shop name"
          value={shopName}
          onChange={(event) => {
            setShopName(event.target.value);
            clear('shopName');
            if (!handleEdited) clear('handle');
          }}
          maxLength={80}
          autoComplete="organization"
          error={errors.fields.shopName}
        />
        <TextField
          label="Shop address"
          value={shownHandle}
          onChange={(event) => {
            setHandle(event.target.value);
            setHandleEdited(true);
            clear('handle');
          }}
          maxLength={30}
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          hint={`Your shop will be at ${address}`}
          error={errors.fields.handle}
        />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={currencyId}>
            Currency
          </label>
          <select
            id={currencyId}
            className={fieldStyles.control}
            value={currency}
            onChange={(event) => setCurrency(event.target.value as ShopCurrency)}
            aria-describedby={`${currencyId}-hint`}
          >
            {SHOP_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {currencyLabel(code)}
              </option>
            ))}
          </select>
          <p id={`${currencyId}-hint`} className={styles.hint}>
            Every price in your shop is in this currency. It cannot be changed later.
          </p>
        </div>
        <ImagePicker
          label="Logo"
          images={logo}
          onChange={setLogo}
          max={1}
          onUploadingChange={setUploading}
          hint="Optional. PNG, JPEG, GIF, WebP or AVIF."
        />
        <TextArea
          className={styles.wide}
          label="Description"
          value={description}
          onChange={(event) => {
            setDescription(event.target.value);
            clear('description');
          }}
          maxLength={2000}
          rows={4}
          hint="What you sell, in a few words: shown at the top of your shop."
          error={errors.fields.description}
        />
      </div>
      <FormAlert message={errors.form} />
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={register.isPending || uploading} aria-busy={register.isPending}>
          {register.isPending ? 'Opening your shop…' : uploading ? 'Waiting for the logo…' : 'Open shop'}
        </Button>
      </div>
    </form>
  );
}
