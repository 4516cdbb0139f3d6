// The farmer application form (SPEC sections 3 and 5): its questions in
// order, the customer form's option lists, and which answers are required.
// Stored values are the spec's English option text; labels are translated
// under `options.<field>.<slug>`, falling back to the stored text.
import type { TFunction } from 'i18next';

export type FieldKind = 'select' | 'text' | 'textarea' | 'checkbox' | 'percent';

export interface FieldDef {
  name: string;
  kind: FieldKind;
  required?: boolean;
  options?: readonly string[];
  /** Shown only when this checkbox is ticked. */
  dependsOn?: string;
}

const SEASONS = ['Season A', 'Season B', 'Both seasons'] as const;

export const FIELDS: readonly FieldDef[] = [
  {
    name: 'land_size',
    kind: 'select',
    required: true,
    options: ['Less than 1 hectare', '1-2 hectares', '2-5 hectares', 'More than 5 hectares'],
  },
  {
    name: 'work_type',
    kind: 'select',
    required: true,
    options: ['Alone', 'With family', 'With hired workers', 'Cooperative'],
  },
  { name: 'cooperative_name', kind: 'text' },
  {
    name: 'income_sources',
    kind: 'select',
    required: true,
    options: ['Farming only', 'Farming and other business', 'Farming and employment', 'Multiple sources'],
  },
  {
    name: 'seed_type',
    kind: 'select',
    required: true,
    options: ['Local/traditional', 'Improved/hybrid', 'Certified seeds', 'Mixed'],
  },
  {
    name: 'seed_source',
    kind: 'select',
    required: true,
    options: ['Local market', 'Agricultural stores', 'Government programs', 'NGOs', 'Own saved seeds'],
  },
  {
    name: 'fertilizers',
    kind: 'select',
    required: true,
    options: ['Compost/manure', 'Chemical fertilizers', 'Organic fertilizers', 'No fertilizers', 'Mixed'],
  },
  {
    name: 'field_preparation',
    kind: 'select',
    required: true,
    options: ['Hand tools (hoe)', 'Animal traction', 'Tractor', 'Mixed methods'],
  },
  { name: 'farming_techniques', kind: 'textarea', required: true },
  { name: 'planting_season', kind: 'select', required: true, options: SEASONS },
  { name: 'higher_season', kind: 'select', required: true, options: SEASONS },
  { name: 'higher_season_reason', kind: 'textarea', required: true },
  {
    name: 'average_yield',
    kind: 'select',
    required: true,
    options: ['Less than 1 ton', '1-2 tons', '2-5 tons', 'More than 5 tons'],
  },
  { name: 'challenges', kind: 'textarea', required: true },
  { name: 'post_harvest_losses', kind: 'checkbox' },
  { name: 'loss_percentage', kind: 'percent', dependsOn: 'post_harvest_losses' },
  {
    name: 'selling_method',
    kind: 'select',
    required: true,
    options: [
      'Sell at local market',
      'Direct to consumers',
      'Through cooperatives',
      'To processors',
      'Multiple channels',
    ],
  },
  { name: 'selling_challenges', kind: 'checkbox' },
  { name: 'selling_challenges_explanation', kind: 'textarea', dependsOn: 'selling_challenges' },
  { name: 'mobile_interest', kind: 'checkbox' },
  { name: 'improvements_production', kind: 'textarea', required: true },
  { name: 'improvements_selling', kind: 'textarea', required: true },
  { name: 'additional_comments', kind: 'textarea' },
];

export type Answers = Record<string, string | boolean | number | null>;

/** The admin's detail view groups the questions as SPEC section 2 names them. */
export const FIELD_GROUPS = {
  basic: ['land_size', 'work_type', 'cooperative_name', 'income_sources'],
  practices: ['seed_type', 'seed_source', 'fertilizers', 'field_preparation'],
  seasons: ['farming_techniques', 'planting_season', 'higher_season', 'higher_season_reason'],
  production: ['average_yield', 'challenges', 'post_harvest_losses', 'loss_percentage'],
  selling: ['selling_method', 'selling_challenges', 'selling_challenges_explanation', 'mobile_interest'],
  improvements: ['improvements_production', 'improvements_selling', 'additional_comments'],
} as const;

/** An answer as a person reads it: translated choice, yes/no, percentage, or "not provided". */
export function answerText(t: TFunction, field: FieldDef, value: unknown): string {
  if (field.kind === 'checkbox') return value === true ? t('survey.yes') : t('survey.no');
  if (field.kind === 'percent') return `${typeof value === 'number' ? value : 0} %`;
  if (typeof value !== 'string' || !value) return t('profile.not_provided');
  return field.kind === 'select' ? optionLabel(t, field.name, value) : value;
}

/** Whether a question applies (a conditional one only when its checkbox is ticked). */
export function applies(field: FieldDef, answers: Record<string, unknown>): boolean {
  return !field.dependsOn || answers[field.dependsOn] === true;
}

export function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function optionLabel(t: TFunction, field: string, value: string): string {
  return t(`options.${field}.${slug(value)}`, { defaultValue: value });
}

/** A form's answers as the server takes them: empty text as null, the percentage as a number. */
export function toAnswers(values: Answers): Answers {
  const answers: Answers = {};
  for (const field of FIELDS) {
    const value = values[field.name];
    if (field.kind === 'checkbox') answers[field.name] = value === true;
    else if (field.kind === 'percent') answers[field.name] = value === '' || value == null ? 0 : Number(value);
    else answers[field.name] = typeof value === 'string' && value.trim() ? value.trim() : null;
  }
  return answers;
}

/** SPEC section 5, in order: codes per field (`required`, `out_of_range`). */
export function validateSubmission(values: Answers): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = values[field.name];
    if (field.required && !(typeof value === 'string' && value.trim())) problems[field.name] = 'required';
  }
  if (values.post_harvest_losses === true) {
    const percent = Number(values.loss_percentage ?? 0);
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) problems.loss_percentage = 'out_of_range';
  }
  return problems;
}
