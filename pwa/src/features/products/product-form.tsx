// The farmer's create/edit form: works offline, photos resized on the phone, keeps what was typed on any failure.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../lib/error-text';
import { ErrorBox, ImagePicker, SelectField, useRefusedForm } from '../../components/form';
import { checkImage } from '../../lib/image-pick';
import type { LocalDb } from '../../lib/sync/local-db';
import { keepPhoto } from '../../lib/sync/photos';
import { CATEGORIES, saveProduct, type Product } from '../../lib/entities/products';
import { CERTIFICATIONS, MAX_PHOTOS, initial, toFields, validateProduct, type FormValues } from './product-form-values';
import { Photo } from '../../components/product-photo';
import { PriceRangeHint } from '../../components/price-range';
import { useSession } from '../../lib/session';

export function ProductForm({
  db,
  uid,
  existing,
  farmerId,
  onDone,
}: {
  db: LocalDb;
  uid: string;
  existing: Product | undefined;
  farmerId: number;
  onDone(): void;
}) {
  const { user } = useSession();
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initial(existing));
  const [problems, setProblems] = useState<Record<string, string>>({});
  // A refused save scrolls to the first field to fix and focuses it (a phone shows one screen).
  const { form: formRef, refused } = useRefusedForm();
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const text =
    (key: keyof FormValues) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set(key, e.target.value as never);

  const pickPhotos = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setPhotoProblem(null);
    for (const file of files) {
      const code = checkImage(file);
      if (code) {
        setPhotoProblem(code);
        continue;
      }
      if (values.images.length >= MAX_PHOTOS) {
        setPhotoProblem('too_many_images');
        break;
      }
      try {
        const hash = await keepPhoto(db, file);
        setValues((v) =>
          v.images.includes(hash) || v.images.length >= MAX_PHOTOS ? v : { ...v, images: [...v.images, hash] },
        );
      } catch {
        setPhotoProblem('image_invalid');
      }
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProduct(values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    setSaving(true);
    try {
      await saveProduct(db, uid, toFields(values), Number(values.quantity), farmerId);
      onDone();
    } catch {
      // The phone's storage refused it (full, or private mode): keep the form as typed.
      setProblems({ form: 'internal_error' });
      refused();
      setSaving(false);
    }
  };

  const error = (field: string) =>
    problems[field] && (
      <p className="field-error" id={`product-${field}-error`}>
        {t(errorKey(problems[field]!))}
      </p>
    );
  const field = (
    name: Exclude<keyof FormValues, 'certifications'>,
    type: string,
    extra: Record<string, unknown> = {},
  ) => (
    <div className={`field${problems[name] ? ' has-error' : ''}`}>
      <label htmlFor={`product-${name}`}>
        {t(`products.fields.${name}`)}
        {['title', 'description', 'quantity', 'price', 'current_price'].includes(name) && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {type === 'textarea' ? (
        <textarea
          id={`product-${name}`}
          rows={3}
          value={values[name] as string}
          onChange={text(name)}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `product-${name}-error` : undefined}
          {...extra}
        />
      ) : (
        <input
          id={`product-${name}`}
          type={type}
          value={values[name] as string}
          onChange={text(name)}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `product-${name}-error` : undefined}
          {...extra}
        />
      )}
      {error(name)}
    </div>
  );

  return (
    <form
      ref={formRef}
      className="card form product-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="product-form-title"
    >
      <h2 id="product-form-title">{existing ? t('products.edit_title') : t('products.new_title')}</h2>
      <ErrorBox
        messages={
          problems.form
            ? [t('common.section_failed')]
            : Object.keys(problems).length > 0
              ? [t('survey.check_form')]
              : []
        }
      />
      {field('title', 'text')}
      <details className="other-names" open={Boolean(values.title_en || values.title_fr || values.title_sw)}>
        <summary>{t('products.other_names')}</summary>
        <p className="muted">{t('products.other_names_hint')}</p>
        {field('title_en', 'text', { lang: 'en', maxLength: 120 })}
        {field('title_fr', 'text', { lang: 'fr', maxLength: 120 })}
        {field('title_sw', 'text', { lang: 'sw', maxLength: 120 })}
      </details>
      {field('description', 'textarea')}
      <details
        className="other-names"
        open={Boolean(values.description_en || values.description_fr || values.description_sw)}
      >
        <summary>{t('products.other_descriptions')}</summary>
        <p className="muted">{t('products.other_descriptions_hint')}</p>
        {field('description_en', 'textarea', { lang: 'en', maxLength: 4000 })}
        {field('description_fr', 'textarea', { lang: 'fr', maxLength: 4000 })}
        {field('description_sw', 'textarea', { lang: 'sw', maxLength: 4000 })}
      </details>
      <div className="field-row two">
        <SelectField label={t('products.fields.category')} value={values.category} onChange={text('category')}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`market.category.${c}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('products.fields.unit')} value={values.unit} onChange={text('unit')}>
          {(['kg', 'piece'] as const).map((u) => (
            <option key={u} value={u}>
              {t(`market.units.${u}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {field('quantity', 'number', { inputMode: 'numeric', min: 1, step: 1 })}
      <div className="field-row two">
        {field('price', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
        {field('current_price', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
      </div>
      <PriceRangeHint
        name={[values.title, values.title_en, values.title_fr, values.title_sw].filter(Boolean).join(' ')}
        unit={values.unit}
        place={user?.location}
        price={Number(values.current_price) || undefined}
      />
      <SelectField label={t('products.fields.status')} value={values.status} onChange={text('status')}>
        {(['active', 'inactive'] as const).map((s) => (
          <option key={s} value={s}>
            {t(`products.status.${s}`)}
          </option>
        ))}
      </SelectField>
      <div className="field-row two">
        {field('harvest_date', 'date')}
        {field('expiry_date', 'date')}
      </div>
      <fieldset className="choice">
        <legend>{t('market.certified')}</legend>
        {CERTIFICATIONS.map((c) => (
          <label key={c} className="checkbox">
            <input
              type="checkbox"
              checked={values.certifications.includes(c)}
              onChange={(e) =>
                set(
                  'certifications',
                  e.target.checked ? [...values.certifications, c] : values.certifications.filter((x) => x !== c),
                )
              }
            />
            <span>{t(`market.certifications.${c}`)}</span>
          </label>
        ))}
      </fieldset>
      {field('tags', 'text')}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={values.shipping_available}
          onChange={(e) => set('shipping_available', e.target.checked)}
        />
        <span>{t('products.fields.shipping_available')}</span>
      </label>
      {values.shipping_available && (
        <div className="field-row two">
          {field('shipping_cost', 'number', { inputMode: 'decimal', min: 0, step: 0.01 })}
          {field('shipping_days', 'text')}
        </div>
      )}
      <div className="field-row two">
        {field('min_order', 'number', { inputMode: 'decimal', min: 0, step: 0.5 })}
        {field('max_order', 'number', { inputMode: 'decimal', min: 0, step: 0.5 })}
      </div>
      <div className="field">
        <ImagePicker
          label={t('products.fields.images')}
          buttonLabel={t('products.add_photos')}
          fileName={null}
          multiple
          onChange={(e) => void pickPhotos(e)}
        />
        <p className="hint">{t('products.photos_hint')}</p>
        {photoProblem && (
          <p className="field-error" role="alert">
            {t(errorKey(photoProblem))}
          </p>
        )}
        {values.images.length > 0 && (
          <ul className="photo-strip">
            {values.images.map((hash, index) => (
              <li key={hash}>
                <Photo db={db} hash={hash} size={320} alt={t('market.picture', { number: index + 1 })} />
                <button
                  type="button"
                  className="button danger-outline small"
                  onClick={() =>
                    set(
                      'images',
                      values.images.filter((h) => h !== hash),
                    )
                  }
                >
                  {t('common.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={saving}>
          {saving ? t('common.saving') : t('products.save')}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
