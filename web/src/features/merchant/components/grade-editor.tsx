import { type FormEvent, useState } from 'react';
import { updateGradeDisplayBodySchema } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import type { GradeView } from '../api/merchant-keys';
import { useUpdateGradeDisplay } from '../api/update-grade-display';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { describePrice } from '../lib/format';
import { EditorSection, PositionField, readPosition } from './editor-section';
import { TextArea, TextField } from '../../../components/text-field';
import { FormAlert } from './form-alert';
import fieldStyles from '../../../components/field.module.css';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

const FIELDS = ['name', 'description', 'badge', 'highlighted', 'position', 'features'] as const;
type Field = (typeof FIELDS)[number];

const MAX_FEATURES = 12;

export interface GradeLook {
  name: string;
  description: string;
  badge: string;
  highlighted: boolean;
  features: readonly string[];
  price: GradeView['price'];
  billing: GradeView['billing'];
}

/** The grade's card as the product's page will show it, drawn from what is typed. */
export function GradePreview({ look }: { look: GradeLook }) {
  const features = look.features.map((feature) => feature.trim()).filter(Boolean);
  return (
    <article className={styles.gradeCard} data-highlighted={look.highlighted || undefined}>
      <div className={styles.gradeCardHeader}>
        <p className={styles.cardTitle}>{look.name.trim() || 'Unnamed grade'}</p>
        {look.badge.trim() ? (
          <span className={styles.badge} data-tone="positive">
            {look.badge.trim()}
          </span>
        ) : look.highlighted ? (
          <span className={styles.badge} data-tone="positive">
            Highlighted
          </span>
        ) : null}
      </div>
      <p className={styles.gradePrice}>{describePrice(look.price, look.billing)}</p>
      {look.description.trim() ? <p className={styles.cardText}>{look.description.trim()}</p> : null}
      {features.length ? (
        <ul className={styles.featureList} aria-label="Included">
          {features.map((feature, index) => (
            <li key={`${index}-${feature}`}>{feature}</li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

/**
 * A grade's name, description and look on the product's page (badge, highlighted, position, the
 * lines of what it includes), with its card beside the form as it will look once saved.
 */
export function GradeEditor({ userId, grade }: { userId: string; grade: GradeView }) {
  const update = useUpdateGradeDisplay(userId, grade.productStockId, grade.id);
  const [name, setName] = useState(grade.name);
  const [description, setDescription] = useState(grade.description);
  const [badge, setBadge] = useState(grade.display.badge ?? '');
  const [highlighted, setHighlighted] = useState(grade.display.highlighted);
  const [position, setPosition] = useState(String(grade.display.position));
  const [features, setFeatures] = useState<string[]>(grade.display.features);
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const order = readPosition(position);
    if ('error' in order) {
      setErrors({ fields: { position: order.error } });
      return;
    }
    const checked = updateGradeDisplayBodySchema.safeParse({
      name,
      description,
      // An empty line is one being written, not a feature.
      display: { badge, highlighted, position: order.position, features: features.filter((feature) => feature.trim()) },
    });
    if (!checked.success) {
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    setErrors({ fields: {} });
    update.mutate(checked.data, {
      onSuccess: () => toast.success('Grade saved'),
      onError: (error) => setErrors(formErrors(error, FIELDS)),
    });
  };

  const editFeature = (index: number, value: string) =>
    setFeatures((current) => current.map((feature, position) => (position === index ? value : feature)));

  return (
    <EditorSection
      title="Grade details"
      onSubmit={submit}
      previewLabel="Preview on the product’s page"
      preview={
        <GradePreview look={{ name, description, badge, highlighted, features, price: grade.price, billing: grade.billing }} />
      }
    >
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={80}
        error={errors.fields.name}
      />
      <TextArea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        maxLength={2000}
        rows={3}
        error={errors.fields.description}
      />
      <div className={styles.fieldGrid}>
        <TextField
          label="Badge"
          value={badge}
          onChange={(event) => setBadge(event.target.value)}
          maxLength={24}
          hint="A short label on the card, such as “Most popular”."
          error={errors.fields.badge}
        />
        <PositionField
          value={position}
          onChange={setPosition}
          hint="Order among the product’s grades: lower comes first."
          error={errors.fields.position}
        />
      </div>
      <label className={styles.checkbox}>
        <input type="checkbox" checked={highlighted} onChange={(event) => setHighlighted(event.target.checked)} />
        <span>Highlighted: drawn out from the other grades</span>
      </label>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>What it includes</legend>
        {features.map((feature, index) => (
          <div key={index} className={styles.featureRow}>
            <TextField
              label={`Feature ${index + 1}`}
              value={feature}
              onChange={(event) => editFeature(index, event.target.value)}
              maxLength={120}
            />
            <Button variant="ghost" onClick={() => setFeatures((current) => current.filter((_, position) => position !== index))}>
              Remove<span className="visually-hidden"> feature {index + 1}</span>
            </Button>
          </div>
        ))}
        {errors.fields.features ? <p className={fieldStyles.error}>{errors.fields.features}</p> : null}
        <div className={pageStyles.actions}>
          <Button
            variant="secondary"
            size="small"
            disabled={features.length >= MAX_FEATURES}
            onClick={() => setFeatures((current) => [...current, ''])}
          >
            Add a feature
          </Button>
        </div>
      </fieldset>
      <FormAlert message={errors.form ?? errors.fields.highlighted} />
      <div className={pageStyles.actions}>
        <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save grade'}
        </Button>
      </div>
    </EditorSection>
  );
}
