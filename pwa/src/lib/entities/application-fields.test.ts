import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { FIELDS, slug, toAnswers, validateSubmission } from './application-fields';
import { SURVEY_FIELDS } from '../sync/protocol';

describe('application form', () => {
  it('every option has a label', () => {
    const options = en.options as Record<string, Record<string, string>>;
    for (const field of FIELDS.filter((f) => f.options)) {
      for (const value of field.options!)
        expect(options[field.name]?.[slug(value)], `${field.name}: ${value}`).toBeTruthy();
    }
  });

  it('a submission needs the required answers, in the form order', () => {
    const problems = validateSubmission({});
    expect(Object.keys(problems)).toEqual(FIELDS.filter((f) => f.required).map((f) => f.name));
    expect(validateSubmission({ post_harvest_losses: true, loss_percentage: '120' }).loss_percentage).toBe(
      'out_of_range',
    );
  });

  it("asks each of the server's questions in a form of its kind (long texts, which merge, in a text area)", () => {
    expect(FIELDS.map((f) => f.name)).toEqual(SURVEY_FIELDS.map((f) => f.name));
    const asked = { text: ['select', 'text'], long_text: ['textarea'], flag: ['checkbox'], percent: ['percent'] };
    for (const [i, field] of FIELDS.entries()) expect(asked[SURVEY_FIELDS[i]!.kind]).toContain(field.kind);
  });

  it('answers are sent as the server takes them', () => {
    const answers = toAnswers({
      land_size: ' 1-2 hectares ',
      challenges: '',
      post_harvest_losses: true,
      loss_percentage: '25',
    });
    expect(answers).toMatchObject({
      land_size: '1-2 hectares',
      challenges: '',
      post_harvest_losses: true,
      loss_percentage: 25,
      mobile_interest: false,
    });
  });
});
