// The farmer application form (docs/product.md, Records and Validation): its questions in
// order, the customer form's option lists, and which answers are required.
// Stored values are the spec's English option text; labels are translated
// under `options.<field>.<slug>`, falling back to the stored text.
import type { TFunction } from 'i18next';
import { SURVEY_FIELDS, type SurveyAnswersInput } from '../sync/protocol';

export type FieldKind = 'select' | 'text' | 'textarea' | 'checkbox' | 'percent';

/** A question's name, as the server's answer table declares it. */
export type SurveyField = (typeof SURVEY_FIELDS)[number]['name'];

export interface FieldDef {
  name: SurveyField;
  kind: FieldKind;
  required: boolean;
  options?: readonly string[];
  /** Shown only when this checkbox is ticked. */
  dependsOn?: SurveyField;
}

const SEASONS = ['Season A', 'Season B', 'Both seasons'] as const;

/** How each question is asked. Keyed by the server's table, so a question
 * added or renamed there fails to compile here until it is given a form. */
const FORM: Record<SurveyField, Omit<FieldDef, 'name' | 'required'>> = {
  land_size: {
    kind: 'select',
    options: ['Less than 1 hectare', '1-2 hectares', '2-5 hectares', 'More than 5 hectares'],
  },
  work_type: { kind: 'select', options: ['Alone', 'With family', 'With hired workers', 'Cooperative'] },
  cooperative_name: { kind: 'text' },
  income_sources: {
    kind: 'select',
    options: ['Farming only', 'Farming and other business', 'Farming and employment', 'Multiple sources'],
  },
  seed_type: { kind: 'select', options: ['Local/traditional', 'Improved/hybrid', 'Certified seeds', 'Mixed'] },
  seed_source: {
    kind: 'select',
    options: ['Local market', 'Agricultural stores', 'Government programs', 'NGOs', 'Own saved seeds'],
  },
  fertilizers: {
    kind: 'select',
    options: ['Compost/manure', 'Chemical fertilizers', 'Organic fertilizers', 'No fertilizers', 'Mixed'],
  },
  field_preparation: { kind: 'select', options: ['Hand tools (hoe)', 'Animal traction', 'Tractor', 'Mixed methods'] },
  farming_techniques: { kind: 'textarea' },
  planting_season: { kind: 'select', options: SEASONS },
  higher_season: { kind: 'select', options: SEASONS },
  higher_season_reason: { kind: 'textarea' },
  average_yield: { kind: 'select', options: ['Less than 1 ton', '1-2 tons', '2-5 tons', 'More than 5 tons'] },
  challenges: { kind: 'textarea' },
  post_harvest_losses: { kind: 'checkbox' },
  loss_percentage: { kind: 'percent', dependsOn: 'post_harvest_losses' },
  selling_method: {
    kind: 'select',
    options: [
      'Sell at local market',
      'Direct to consumers',
      'Through cooperatives',
      'To processors',
      'Multiple channels',
    ],
  },
  selling_challenges: { kind: 'checkbox' },
  selling_challenges_explanation: { kind: 'textarea', dependsOn: 'selling_challenges' },
  mobile_interest: { kind: 'checkbox' },
  improvements_production: { kind: 'textarea' },
  improvements_selling: { kind: 'textarea' },
  additional_comments: { kind: 'textarea' },
};

/** The questions in the form's order, with the server's required flags. */
export const FIELDS: readonly FieldDef[] = SURVEY_FIELDS.map((field) => ({
  name: field.name,
  required: field.required,
  ...FORM[field.name],
}));

export type Answers = Record<string, string | boolean | number | null>;

/** The admin's detail view groups the questions as docs/product.md, Screens names them. */
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
export function applies(field: FieldDef, answers: Partial<Record<SurveyField, unknown>>): boolean {
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

/** A form's answers as the server takes them: every question, blank text to
 * clear an answer (the server keeps an answer that is absent), the
 * percentage as a number. */
export function toAnswers(values: Answers): SurveyAnswersInput {
  const answers: Record<string, string | boolean | number> = {};
  for (const field of FIELDS) {
    const value = values[field.name];
    if (field.kind === 'checkbox') answers[field.name] = value === true;
    else if (field.kind === 'percent') answers[field.name] = value === '' || value == null ? 0 : Number(value);
    else answers[field.name] = typeof value === 'string' ? value.trim() : '';
  }
  return answers as SurveyAnswersInput;
}

/** docs/product.md, Validation, in order: codes per field (`required`, `out_of_range`). */
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
