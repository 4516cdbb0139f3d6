// Paying an order or a course by mobile money (docs/payments.md): online
// only, a tap on "Pay now" asks the operator to show a prompt on the payer's
// phone; the server learns the answer, and the order's payment status or the
// course's enrolment follows by sync. `path` is what is paid for's payments:
// `/orders/{id}/payments` or `/courses/{id}/payments`.
import type { TFunction } from 'i18next';
import { api } from './api';
import { nationalNumber } from './validation';

import type { PaymentStatus } from './sync/records';

export type { PaymentStatus };

export interface Operator {
  id: string;
  name: string;
  /** How its national numbers start, where the country's plan tells operators apart. */
  prefixes: string[];
}

/** The operator a number belongs to, where the country's plan says it (the server checks it
 * too); undefined when it cannot tell: then the person is asked. */
export function operatorOfNumber(operators: Operator[], typed: string, country: string): Operator | undefined {
  const national = nationalNumber(typed, country);
  if (!national) return undefined;
  return operators.find((o) => o.prefixes.some((p) => national.startsWith(p)));
}

export interface Payment {
  id: string;
  order_id: number | null;
  course_id: number | null;
  status: PaymentStatus;
  amount_cents: number;
  currency: string;
  operator: string;
  /** The operator as people know it ("MTN MoMo"). */
  operator_name: string;
  phone: string;
  failure_reason: string | null;
  /** Taken by the built-in simulator: no real money moved. */
  simulated: boolean;
}

export const isSettled = (status: PaymentStatus | null | undefined) =>
  status === 'succeeded' || status === 'failed' || status === 'expired';

export const fetchOperators = (country: string) =>
  api<{ data: Operator[] }>(`/payments/operators?country=${encodeURIComponent(country)}`).then((r) => r.data);

export const orderPaymentsPath = (orderId: number) => `/orders/${orderId}/payments`;
export const coursePaymentsPath = (courseId: number) => `/courses/${courseId}/payments`;

export const startPayment = (path: string, operator: string, phone: string) =>
  api<{ data: Payment }>(path, { method: 'POST', json: { operator, phone } }).then((r) => r.data);

/** An order's payments, oldest first, with their history. */
export const orderPayments = (orderId: number) =>
  api<{ data: (Payment & { events: { status: PaymentStatus; source: string; note: string | null; at: string }[] })[] }>(
    orderPaymentsPath(orderId),
  ).then((r) => r.data);

/** A simulated phone prompt waiting for an answer (the demo). */
export interface Prompt {
  payment_id: string;
  phone: string;
  operator: string;
  amount_cents: number;
  currency: string;
}

export const fetchPrompts = () => api<{ data: Prompt[] }>('/admin/payments/prompts').then((r) => r.data);

export const answerPrompt = (paymentId: string, approve: boolean) =>
  api(`/admin/payments/prompts/${paymentId}`, { method: 'POST', json: { approve } });

/** The latest payment, as the server has it now. */
export const latestPayment = (path: string) => api<{ data: Payment[] }>(path).then((r) => r.data.at(-1) ?? null);

/** Why a payment did not go through, in the reader's words: the provider's code
 * (pawaPay's or the simulator's, lower case), or a general sentence for one we do not know. */
export function failureText(t: TFunction, reason: string | null): string {
  return t(`payments.reasons.${reason ?? 'other'}`, { defaultValue: t('payments.reasons.other') });
}
