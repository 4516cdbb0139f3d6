// Turns a failure into sentences in the person's language, at render time
// (so they follow a language switch): a list of codes from a client-side
// check, every field error of a validation answer, else the error's code,
// else the screen's own fallback.
import type { TFunction } from 'i18next';
import { ApiError } from './api';

/** What a form keeps of its last failure: codes from its own checks, or what was thrown. */
export type Problem = { codes: string[] } | { error: unknown } | null;

export function problemMessages(problem: Problem, t: TFunction, fallbackKey: string): string[] {
  if (!problem) return [];
  if ('codes' in problem) return problem.codes.map((code) => t(`errors.${code}`));
  return errorMessages(problem.error, t, fallbackKey);
}

export function errorMessages(error: unknown, t: TFunction, fallbackKey: string): string[] {
  if (!(error instanceof ApiError)) return [t(fallbackKey)];
  if (error.errorCodes && Object.keys(error.errorCodes).length > 0) {
    return Object.values(error.errorCodes)
      .flat()
      .map((code) => t(`errors.${code}`, { defaultValue: t(fallbackKey) }));
  }
  return [t(`errors.${error.code}`, { defaultValue: t(fallbackKey) })];
}
