// Client-side checks in the order of docs/product.md, Validation, with the server's codes, so
// both sides say the same thing (translated under `errors.<code>`).

export const MIN_PASSWORD = 6;

/** Who a person is: asked at sign-up and when a field agent registers someone. */
export interface PersonValues {
  first_name: string;
  last_name: string;
  phone_number: string;
  country: string;
}

/** A person's checks, in the server's order, as error codes. */
export function checkPerson(values: PersonValues): string[] {
  const codes: string[] = [];
  for (const field of ['first_name', 'last_name', 'phone_number', 'country'] as const) {
    if (!values[field].trim()) codes.push(`${field}_required`);
  }
  if (values.phone_number.trim() && values.country && !readablePhone(values.phone_number, values.country))
    codes.push('phone_number_invalid');
  return codes;
}

export interface RegistrationValues extends PersonValues {
  email: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
}

export function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@.]+(\.[^\s@.]+)*$/.test(email.trim());
}

export function checkPassword(password: string, confirmation: string): string[] {
  const codes: string[] = [];
  if (password !== confirmation) codes.push('passwords_do_not_match');
  if ([...password].length < MIN_PASSWORD) codes.push('password_too_short');
  return codes;
}

export function validateRegistration(values: RegistrationValues): string[] {
  const codes = [...checkPassword(values.password, values.password_confirmation), ...checkPerson(values)];
  if (values.email.trim() && !looksLikeEmail(values.email)) codes.push('email_invalid');
  if (!values.terms) codes.push('terms_required');
  return codes;
}

// Kept with the sign-in sent from the server's first screen, which must not wait for this file.
export { signInName, typedPhone } from './early-sign-in';

export function validateLogin(emailOrPhone: string, password: string): string[] {
  const codes: string[] = [];
  if (!emailOrPhone.trim()) codes.push('email_or_phone_required');
  if (!password) codes.push('password_required');
  return codes;
}

/** Calling code and national length of the six countries (server/src/domain/phone.rs). */
const PHONE_PLANS: Record<string, [string, number]> = {
  DRC: ['243', 9],
  BDI: ['257', 8],
  RWA: ['250', 9],
  UGA: ['256', 9],
  TZA: ['255', 9],
  KEN: ['254', 9],
};

/** The served country an international number belongs to (`+250…`, `00250…`, or the
 * calling code with the national length, `250788…`); undefined for a national number,
 * which is the country it is typed in. */
export function countryOfNumber(typed: string): string | undefined {
  const text = typed.trim();
  const digits = text.replace(/\D/g, '');
  const international = text.startsWith('+') ? digits : digits.startsWith('00') ? digits.slice(2) : null;
  return Object.entries(PHONE_PLANS).find(([, [code, national]]) =>
    international !== null
      ? international.startsWith(code)
      : digits.length === code.length + national && digits.startsWith(code),
  )?.[0];
}

/** The national digits of `typed` as a number of `country` (no calling code, no trunk 0),
 * or undefined when it is not one (readablePhone's forms). */
export function nationalNumber(typed: string, country: string): string | undefined {
  const plan = PHONE_PLANS[country];
  if (!plan || !readablePhone(typed, country)) return undefined;
  const [code, national] = plan;
  const text = typed.trim();
  const all = text.replace(/\D/g, '');
  const international = text.startsWith('+') || all.startsWith('00');
  const digits = all.startsWith('00') ? all.slice(2) : all;
  const rest =
    international || digits.length === code.length + national
      ? digits.startsWith(code)
        ? digits.slice(code.length)
        : undefined
      : digits.length === national + 1
        ? digits.slice(1)
        : digits;
  return rest?.length === national ? rest : undefined;
}

/** Whether the server will read `typed` as a number of `country` (as domain/phone.rs does):
 * international, or national with or without the trunk 0 or the calling code. */
export function readablePhone(typed: string, country: string): boolean {
  const plan = PHONE_PLANS[country];
  const text = typed.trim();
  if (!plan || !/^[\d +\-.()/]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, '');
  if (text.startsWith('+') || digits.startsWith('00')) {
    const length = text.startsWith('+') ? digits.length : digits.length - 2;
    return length >= 8 && length <= 15;
  }
  const [code, national] = plan;
  return (
    (digits.length === national + 1 && digits.startsWith('0')) ||
    (digits.length === code.length + national && digits.startsWith(code)) ||
    digits.length === national
  );
}
