// The product form's values, their checks (docs/product.md, Validation) and what is sent.
import { fieldsOf, type Product, type ProductFields } from '../../lib/entities/products';

export { CERTIFICATIONS } from '../../lib/sync/records';
export const MAX_PHOTOS = 6;
export interface FormValues {
  title: string;
  title_en: string;
  title_fr: string;
  title_sw: string;
  description: string;
  description_en: string;
  description_fr: string;
  description_sw: string;
  category: string;
  unit: string;
  quantity: string;
  price: string;
  current_price: string;
  status: string;
  harvest_date: string;
  expiry_date: string;
  certifications: string[];
  tags: string;
  shipping_available: boolean;
  shipping_cost: string;
  shipping_days: string;
  min_order: string;
  max_order: string;
  images: string[];
}

export function initial(p: Product | undefined): FormValues {
  const f = p ? fieldsOf(p) : undefined;
  return {
    title: f?.title ?? '',
    title_en: f?.title_en ?? '',
    title_fr: f?.title_fr ?? '',
    title_sw: f?.title_sw ?? '',
    description: f?.description ?? '',
    description_en: f?.description_en ?? '',
    description_fr: f?.description_fr ?? '',
    description_sw: f?.description_sw ?? '',
    category: f?.category ?? 'vegetables',
    unit: f?.unit ?? 'kg',
    quantity: p ? String(p.quantity) : '',
    price: f ? f.price.toFixed(2) : '',
    current_price: f ? f.current_price.toFixed(2) : '',
    status: f?.status ?? 'active',
    harvest_date: f?.harvest_date ?? '',
    expiry_date: f?.expiry_date ?? '',
    certifications: f?.certifications ?? [],
    tags: (f?.tags ?? []).join(', '),
    shipping_available: f?.shipping_available ?? true,
    shipping_cost: f ? f.shipping_cost.toFixed(2) : '5.00',
    shipping_days: f?.shipping_days ?? '',
    min_order: f ? String(f.min_order) : '1',
    max_order: f?.max_order == null ? '' : String(f.max_order),
    images: f?.images ?? [],
  };
}

export const MONEY = /^\d+(\.\d{1,2})?$/;

/** docs/product.md, Validation, in order: title, description, quantity (whole, at least 1), prices (at least 0, two decimals). */
export function validateProduct(
  v: Pick<
    FormValues,
    'title' | 'description' | 'quantity' | 'price' | 'current_price' | 'harvest_date' | 'expiry_date'
  >,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!v.title.trim()) problems.title = 'required';
  if (!v.description.trim()) problems.description = 'required';
  if (!/^\d+$/.test(v.quantity.trim()) || Number(v.quantity) < 1) problems.quantity = 'quantity_invalid';
  if (!MONEY.test(v.price.trim())) problems.price = 'price_invalid';
  if (!MONEY.test(v.current_price.trim())) problems.current_price = 'price_invalid';
  if (v.harvest_date && v.expiry_date && v.expiry_date < v.harvest_date) problems.expiry_date = 'expiry_before_harvest';
  return problems;
}

export function toFields(v: FormValues): Partial<ProductFields> {
  const maxOrder = v.max_order.trim() === '' ? null : Number(v.max_order);
  return {
    title: v.title.trim(),
    title_en: v.title_en.trim() || null,
    title_fr: v.title_fr.trim() || null,
    title_sw: v.title_sw.trim() || null,
    description: v.description.trim(),
    description_en: v.description_en.trim() || null,
    description_fr: v.description_fr.trim() || null,
    description_sw: v.description_sw.trim() || null,
    category: v.category as ProductFields['category'],
    unit: v.unit as ProductFields['unit'],
    price: Number(v.price),
    current_price: Number(v.current_price),
    status: v.status as ProductFields['status'],
    harvest_date: v.harvest_date || null,
    expiry_date: v.expiry_date || null,
    certifications: v.certifications,
    tags: v.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    shipping_available: v.shipping_available,
    shipping_cost: Number(v.shipping_cost || 0),
    shipping_days: v.shipping_days.trim() || null,
    min_order: Number(v.min_order || 1),
    max_order: maxOrder,
    images: v.images,
  };
}
