import { describe, expect, it } from 'vitest';
import { checkImage } from './image-pick';
import {
  countryOfNumber,
  nationalNumber,
  readablePhone,
  signInName,
  validateLogin,
  validateRegistration,
  type RegistrationValues,
} from './validation';
import { operatorOfNumber } from './payments';

const complete: RegistrationValues = {
  first_name: 'Amani',
  last_name: 'Bahati',
  email: 'amani@example.com',
  phone_number: '0991234567',
  country: 'DRC',
  password: 'secret1',
  password_confirmation: 'secret1',
  terms: true,
};

describe('registration checks (docs/product.md, Validation order)', () => {
  it('reports every problem in the spec order, terms last', () => {
    const empty = {
      ...complete,
      first_name: '',
      last_name: ' ',
      email: '',
      phone_number: '',
      country: '',
      password: 'abc',
      password_confirmation: 'abd',
      terms: false,
    };
    expect(validateRegistration(empty)).toEqual([
      'passwords_do_not_match',
      'password_too_short',
      'first_name_required',
      'last_name_required',
      'phone_number_required',
      'country_required',
      'terms_required',
    ]);
  });

  it('accepts a complete form', () => {
    expect(validateRegistration(complete)).toEqual([]);
  });

  it('refuses a phone number the server would not read as one of the country', () => {
    expect(validateRegistration({ ...complete, phone_number: '12' })).toEqual(['phone_number_invalid']);
    expect(validateRegistration({ ...complete, phone_number: '+243 991 234 567' })).toEqual([]);
  });

  it('takes an account without email, and checks the email shape only once one is given', () => {
    expect(validateRegistration({ ...complete, email: 'amani@' })).toEqual(['email_invalid']);
    expect(validateRegistration({ ...complete, email: '' })).toEqual([]);
  });

  it('counts characters, not bytes', () => {
    expect(validateRegistration({ ...complete, password: 'ñañañ', password_confirmation: 'ñañañ' })).toEqual([
      'password_too_short',
    ]);
    expect(validateRegistration({ ...complete, password: 'ñañaña', password_confirmation: 'ñañaña' })).toEqual([]);
  });
});

describe('sign-in and image checks', () => {
  it('needs both fields', () => {
    expect(validateLogin(' ', '')).toEqual(['email_or_phone_required', 'password_required']);
    expect(validateLogin('a@b.co', 'x')).toEqual([]);
  });

  it('signs in by phone number when what was typed has digits and no @', () => {
    expect(signInName(' Amani@Example.com ')).toEqual({ email: 'Amani@Example.com' });
    expect(signInName('0991 234 567 ')).toEqual({ phone_number: '0991 234 567' });
    expect(signInName('+243991234567')).toEqual({ phone_number: '+243991234567' });
    expect(signInName('amani')).toEqual({ email: 'amani' });
  });

  it('takes images of at most 5 MB', () => {
    expect(checkImage(new File(['x'], 'a.png', { type: 'image/png' }))).toBeNull();
    expect(checkImage(new File(['x'], 'a.pdf', { type: 'application/pdf' }))).toBe('image_invalid');
    expect(checkImage(new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }))).toBe(
      'image_too_large',
    );
  });
});

describe('phone numbers, as the server reads them', () => {
  it('takes the national forms of the chosen country and international numbers', () => {
    for (const typed of ['0991 234 567', '991234567', '243991234567', '+243 991 234 567', '00243991234567'])
      expect(readablePhone(typed, 'DRC')).toBe(true);
    expect(readablePhone('79 123 456', 'BDI')).toBe(true);
    for (const typed of ['12345', '0991 234 5', 'call me', '']) expect(readablePhone(typed, 'DRC')).toBe(false);
    expect(readablePhone('0991234567', '')).toBe(false);
  });

  it('gives the national digits of every form of a number, or nothing', () => {
    for (const typed of ['0991 234 567', '991234567', '243991234567', '+243 991 234 567', '00243991234567'])
      expect(nationalNumber(typed, 'DRC')).toBe('991234567');
    expect(nationalNumber('+250 788 123 456', 'DRC')).toBeUndefined();
    expect(nationalNumber('0991 234 5', 'DRC')).toBeUndefined();
  });

  it("names a number's operator where the plan says it, and nothing where it cannot", () => {
    const drc = [
      { id: 'VODACOM_MPESA_COD', name: 'Vodacom M-Pesa', prefixes: ['81', '82', '83'] },
      { id: 'AIRTEL_COD', name: 'Airtel Money', prefixes: ['97', '98', '99'] },
    ];
    expect(operatorOfNumber(drc, '0990 000 101', 'DRC')?.id).toBe('AIRTEL_COD');
    expect(operatorOfNumber(drc, '+243 812 345 678', 'DRC')?.id).toBe('VODACOM_MPESA_COD');
    expect(operatorOfNumber(drc, '0901 234 567', 'DRC')).toBeUndefined();
    expect(operatorOfNumber(drc, '099', 'DRC')).toBeUndefined();
  });

  it("reads a number's country from its calling code", () => {
    expect(countryOfNumber('+243 991 234 567')).toBe('DRC');
    expect(countryOfNumber('00250788123456')).toBe('RWA');
    expect(countryOfNumber('243991234567')).toBe('DRC');
    expect(countryOfNumber('0788123456')).toBeUndefined();
    expect(countryOfNumber('+33612345678')).toBeUndefined();
  });
});
