// Turns a failure into sentences in the person's language, at render time
// (so they follow a language switch): a list of codes from a client-side
// check, every field error of a validation answer, else the error's code,
// else the screen's own fallback.
import type { ParseKeys, TFunction } from 'i18next';
import type en from '../locales/en.json';
import { ApiError } from './api';
import type { MutationResult } from './sync/protocol';

export type ErrorCode = keyof (typeof en)['errors'];

/**
 * The catalogue key of an error code from a form's own checks or from the
 * server. Codes are data, so this is the one place their key is taken on
 * trust; locales/catalogues.test.ts checks that every code in docs/api.md
 * and every one the API document lists has its words, and the callers give
 * a fallback for any other.
 */
export function errorKey(code: string): `errors.${ErrorCode}` {
  return `errors.${code}` as `errors.${ErrorCode}`;
}

/** What a form keeps of its last failure: codes from its own checks, or what was thrown. */
export type Problem = { codes: string[] } | { error: unknown } | null;

export function problemMessages(problem: Problem, t: TFunction, fallbackKey: ParseKeys): string[] {
  if (!problem) return [];
  if ('codes' in problem) return problem.codes.map((code) => t(errorKey(code)));
  return errorMessages(problem.error, t, fallbackKey);
}

export function errorMessages(error: unknown, t: TFunction, fallbackKey: ParseKeys): string[] {
  if (!(error instanceof ApiError)) return [t(fallbackKey)];
  if (error.errorCodes && Object.keys(error.errorCodes).length > 0) {
    return Object.values(error.errorCodes)
      .flat()
      .map((code) => t(errorKey(code), { defaultValue: t(fallbackKey) }));
  }
  return [t(errorKey(error.code), { defaultValue: t(fallbackKey) })];
}

/** Codes whose field is not their prefix. */
const CODE_FIELD: Record<string, string> = {
  passwords_do_not_match: 'password_confirmation',
  more_than_owed: 'amount',
};

/**
 * Each of `fields`' first problem, in words: from a form's own codes (a code names its
 * field as its prefix: `first_name_required`) or from the server's field codes.
 */
export function fieldProblems(problem: Problem, t: TFunction, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (field: string | undefined, code: string) => {
    if (field && !(field in out)) out[field] = t(errorKey(code), { defaultValue: code });
  };
  if (!problem) return out;
  if ('codes' in problem) {
    const byLength = [...fields].sort((a, b) => b.length - a.length);
    for (const code of problem.codes) add(CODE_FIELD[code] ?? byLength.find((f) => code.startsWith(`${f}_`)), code);
  } else if (problem.error instanceof ApiError && problem.error.errorCodes) {
    for (const [field, codes] of Object.entries(problem.error.errorCodes)) {
      if (fields.includes(field) && codes[0]) add(field, codes[0]);
    }
  }
  return out;
}

/** Why the server refused a queued change, in words: its field codes, else its code. */
export function refusalText(result: MutationResult | undefined, t: TFunction): string {
  const codes = Object.values(result?.error_codes ?? {}).flat();
  return (codes.length > 0 ? codes : [result?.code ?? ''])
    .filter(Boolean)
    .map((code) => t(`errors.${code}`, { defaultValue: code }))
    .join(' ');
}
