// Cooperatives (docs/cooperatives.md): the person's memberships, the cooperatives they
// may join, and for those they manage, the members a delivery is weighed for, all kept
// on the phone for a collection point without signal; the deliveries weighed here
// (`delivery.record`, sent once); and a member's own book with its disputes.
import { useLiveQuery } from 'dexie-react-hooks';
import { api } from '../api';
import { localToday } from '../format';
import { uploadPhotos } from '../sync/photos';
import type { LocalDb } from '../sync/local-db';
import { argsOf, enqueue, forget, newUid, type EntityHandler } from '../sync/engine';
import type { DeliveryRecord } from '../sync/protocol';
import type { StoredDelivery } from '../sync/stored';
import { keepNewest, withChangeState, type ChangeState } from './recorded';

export const GRADES = ['A', 'B', 'C'] as const;
export const WEIGH_UNITS = ['kg', 'bag_50kg', 'bag_100kg'] as const;

export interface Cooperative {
  id: number;
  name: string;
  territory: string;
  market_name: string;
  description: string;
  fee_percent: number;
  status: 'active' | 'suspended';
  members: number;
  crops: string[];
  /** The account its lots are sold under (their products' farmer), once it made one. */
  seller_id: number | null;
  /** Disputes waiting for a manager's answer (in an admin's list only). */
  open_disputes?: number | null;
}

export interface Membership {
  cooperative_id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  phone_number?: string;
  location: string | null;
  /** Only farmers bring deliveries. */
  farmer: boolean;
  role: 'member' | 'manager';
  status: 'asked' | 'active' | 'removed';
  /** Where the member's plot is, when recorded (the member and managers see it). */
  plot?: { latitude: number; longitude: number };
  named_in_origin: boolean;
}

export interface Delivery {
  id: number;
  uid: string;
  reference: string;
  cooperative_id: number;
  cooperative_name: string;
  member_id: number;
  member_name: string;
  crop: string;
  grade: string;
  kilograms: string;
  delivered_on: string;
  place: string;
  replaces_id: number | null;
  replaced_by: number | null;
  /** Drawn into a lot: it can no longer be corrected. */
  in_lot: boolean;
  note: string | null;
  created_at: string;
  dispute: {
    reason: string;
    answer: 'corrected' | 'kept' | null;
    answer_note: string | null;
    created_at: string;
  } | null;
}

/** What a cooperative holds of a crop and grade: received, corrections applied. */
export interface Stock {
  crop: string;
  grade: string;
  received_kilograms: string;
  in_lots_kilograms: string;
  /** Held and not in a lot: what a new lot may take. */
  available_kilograms: string;
  /** Delivered to buyers (whole kilograms). */
  sold_kilograms: number;
  members: number;
}

/** A lot on sale or sold (docs/cooperatives.md, Lots). */
export interface Lot {
  id: number;
  /** Its number in its cooperative ("lot 3 of …"), the one people see. */
  number: number;
  uid: string;
  cooperative_id: number;
  product_id: number;
  crop: string;
  grade: string;
  kilograms: number;
  on_sale_kilograms: number;
  sold_kilograms: number;
  price: number;
  members: number;
  pickup: string;
  /** The days it is collected on (`mon` … `sun`). */
  pickup_days: string[];
  /** US dollars: the cooperative delivers it too, for this cost; null when it is only collected. */
  delivery_cost: number | null;
  withdrawn: boolean;
}

/** A member's account with a cooperative (cents). */
export interface Account {
  member_id: number;
  member_name: string;
  shares_cents: number;
  paid_cents: number;
  pending_cents: number;
  owed_cents: number;
}

/** What a cooperative's lots brought, and its members' accounts. */
export interface Books {
  sales_cents: number;
  platform_fees_cents: number;
  shared_cents: number;
  kept_cents: number;
  data: Account[];
}

export interface Payout {
  id: number;
  uid: string;
  member_id: number;
  member_name: string;
  amount_cents: number;
  method: 'mobile_money' | 'cash';
  status: 'pending' | 'paid' | 'failed';
  failure_reason: string | null;
  created_at: string;
}

/** What a manager types to make a lot (the uid stays the same when it is sent again). */
export interface LotInput {
  uid: string;
  crop: string;
  grade: string;
  kilograms: number;
  price: string;
  min_order: number;
  pickup: string;
  pickup_days: string[];
  /** Not sent: the lot is only collected. */
  delivery_cost?: string;
}

/** What the phone keeps of the person's cooperatives. */
export interface SavedCooperatives {
  memberships: Membership[];
  /** The active cooperatives (to join), and those the person belongs to. */
  cooperatives: Cooperative[];
  /** The people of each cooperative the person manages, by its id. */
  members: Record<number, Membership[]>;
  /** The stock of each cooperative the person manages, by its id. */
  stock: Record<number, Stock[]>;
  /** The lots of each cooperative the person manages, by its id (older phones' copies lack it). */
  lots?: Record<number, Lot[]>;
  /** The money of each cooperative the person manages, by its id. */
  books?: Record<number, Books>;
  payouts?: Record<number, Payout[]>;
  /** Each managed cooperative's entries of the day it was fetched. */
  today?: Record<number, Delivery[]>;
  /** Each managed cooperative's entries whose dispute waits for an answer, oldest first. */
  disputes?: Record<number, Delivery[]>;
  /** The person's own accounts with their cooperatives. */
  myAccounts?: MyAccount[];
  savedAt: string;
}

const SAVED = 'cooperatives';
const MY_DELIVERIES = 'my_deliveries';
/** Deliveries weighed on this phone kept in its list (those not yet sent always are). */
const KEPT = 200;

export const useSavedCooperatives = (db: LocalDb) => useLiveQuery(() => db.getMeta<SavedCooperatives>(SAVED), [db]);

/** The cooperatives they manage, active ones, of what was saved. */
export function managed(saved: SavedCooperatives | undefined): Cooperative[] {
  if (!saved) return [];
  const ids = new Set(
    saved.memberships.filter((m) => m.role === 'manager' && m.status === 'active').map((m) => m.cooperative_id),
  );
  return saved.cooperatives.filter((c) => ids.has(c.id) && c.status === 'active');
}

/** Fetches the person's cooperatives (and managed ones' members) and keeps them on the phone. */
export async function refreshCooperatives(db: LocalDb): Promise<SavedCooperatives> {
  const [mine, open] = await Promise.all([
    api<{ data: Membership[] }>('/me/cooperatives'),
    api<{ data: Cooperative[] }>('/cooperatives'),
  ]);
  const cooperatives = [...open.data];
  for (const m of mine.data.filter((m) => !cooperatives.some((c) => c.id === m.cooperative_id))) {
    const one = await api<{ data: Cooperative }>(`/cooperatives/${m.cooperative_id}`).catch(() => null);
    if (one) cooperatives.push(one.data);
  }
  const members: Record<number, Membership[]> = {};
  const stock: Record<number, Stock[]> = {};
  const lots: Record<number, Lot[]> = {};
  const books: Record<number, Books> = {};
  const payouts: Record<number, Payout[]> = {};
  const today: Record<number, Delivery[]> = {};
  const disputes: Record<number, Delivery[]> = {};
  for (const m of mine.data.filter((m) => m.role === 'manager' && m.status === 'active')) {
    const id = m.cooperative_id;
    const [people, held, made, money, paid, day, disputed] = await Promise.all([
      api<{ data: Membership[] }>(`/cooperatives/${id}/members`),
      api<{ data: Stock[] }>(`/cooperatives/${id}/stock`),
      api<{ data: Lot[] }>(`/cooperatives/${id}/lots`),
      api<Books>(`/cooperatives/${id}/accounts`),
      api<{ data: Payout[] }>(`/cooperatives/${id}/payouts`),
      api<{ data: Delivery[] }>(`/cooperatives/${id}/deliveries?day=${localToday()}&per_page=200`),
      api<{ data: Delivery[] }>(`/cooperatives/${id}/deliveries?disputed=true&per_page=100`),
    ]);
    members[id] = people.data;
    stock[id] = held.data;
    lots[id] = made.data;
    books[id] = money;
    payouts[id] = paid.data;
    today[id] = day.data;
    disputes[id] = disputed.data;
  }
  const myAccounts = (await fetchMyPayouts()).accounts;
  const saved = {
    myAccounts,
    memberships: mine.data,
    cooperatives,
    members,
    stock,
    lots,
    books,
    payouts,
    today,
    disputes,
    savedAt: new Date().toISOString(),
  };
  await db.setMeta(SAVED, saved);
  return saved;
}

/** Puts a lot on sale (online: the stock it is drawn from is the server's). */
export const makeLot = (cooperativeId: number, lot: LotInput) =>
  api(`/cooperatives/${cooperativeId}/lots`, { method: 'POST', json: lot });

/** A new price for a lot, or the lot off sale (what was not ordered goes back to the stock). */
export const changeLot = (cooperativeId: number, lotId: number, change: { price?: string; on_sale?: false }) =>
  api(`/cooperatives/${cooperativeId}/lots/${lotId}`, { method: 'PATCH', json: change });

/** Pays a member (online: what is owed is the server's); the uid stays the same when it is sent again. */
export const payMember = (
  cooperativeId: number,
  payout: {
    uid: string;
    member_id: number;
    method: 'cash' | 'mobile_money';
    operator?: string;
    phone?: string;
    amount_cents?: number;
  },
) => api(`/cooperatives/${cooperativeId}/payouts`, { method: 'POST', json: payout });

export const confirmPayout = (cooperativeId: number, payoutId: number, code: string) =>
  api(`/cooperatives/${cooperativeId}/payouts/${payoutId}/confirm`, { method: 'POST', json: { code } });

export const cancelPayout = (cooperativeId: number, payoutId: number) =>
  api(`/cooperatives/${cooperativeId}/payouts/${payoutId}/cancel`, { method: 'POST' });

/** A member's accounts with their cooperatives. */
export interface MyAccount {
  cooperative_id: number;
  cooperative_name: string;
  shares_cents: number;
  paid_cents: number;
  owed_cents: number;
}

export const fetchMyPayouts = () => api<{ accounts: MyAccount[]; data: Payout[] }>('/me/payouts');

/** A member records where their plot is, and whether buyers may see their name in a lot's origin. */
export const setOrigin = (
  cooperativeId: number,
  origin: { latitude?: number; longitude?: number; named_in_origin: boolean },
) => api(`/me/cooperatives/${cooperativeId}/origin`, { method: 'PUT', json: origin });

export const askToJoin = (id: number) => api(`/cooperatives/${id}/join`, { method: 'POST' });

/** A manager accepts or removes someone (then the saved members are fetched again). */
export async function answerMember(db: LocalDb, id: number, userId: number, status: 'active' | 'removed') {
  await api(`/cooperatives/${id}/members/${userId}`, { method: 'PUT', json: { status } });
  await refreshCooperatives(db);
}

/** Queues a weighed delivery; it is sent once, whenever there is a signal. */
export async function recordDelivery(db: LocalDb, delivery: Omit<DeliveryRecord, 'uid'>): Promise<string> {
  const uid = newUid();
  await enqueue(db, 'delivery.record', { uid, ...delivery });
  await keepNewest(db, db.weighed, KEPT);
  return uid;
}

export type WeighedDelivery = StoredDelivery & { change: ChangeState };

/** The deliveries weighed on this phone, newest first, each with its change's state. */
export function useWeighed(db: LocalDb): WeighedDelivery[] | undefined {
  return useLiveQuery(() => withChangeState(db, db.weighed), [db]);
}

export const forgetWeighed = (db: LocalDb, uid: string) => forget(db, db.weighed, uid);

/** How many weigh-ins this phone still has to send (refused ones aside). */
export function useWeighInsWaiting(db: LocalDb): number | undefined {
  return useLiveQuery(
    () => db.outbox.filter((e) => e.name === 'delivery.record' && e.state !== 'rejected').count(),
    [db],
  );
}

/** Deliveries weighed here stay on the phone (never pulled: the manager's own list). */
export const deliveryEntity: EntityHandler = {
  table: (db) => db.weighed,
  async beforePush(db, mutation) {
    const photo = argsOf(mutation, 'delivery.record')?.photo;
    if (photo) await uploadPhotos(db, [photo]);
  },
  async apply(db, mutation) {
    const delivery = argsOf(mutation, 'delivery.record');
    if (!delivery) return;
    const kept = await db.weighed.get(delivery.uid);
    await db.weighed.put({
      ...delivery,
      recorded_at: kept?.recorded_at ?? mutation.client_time ?? new Date().toISOString(),
    });
  },
};

/** The member's own entries (the last answer is kept for reading without signal). */
export async function refreshMyDeliveries(db: LocalDb): Promise<Delivery[]> {
  const { data } = await api<{ data: Delivery[] }>('/me/deliveries');
  await db.setMeta(MY_DELIVERIES, { data, savedAt: new Date().toISOString() });
  return data;
}

export const useMyDeliveries = (db: LocalDb) =>
  useLiveQuery(() => db.getMeta<{ data: Delivery[]; savedAt: string }>(MY_DELIVERIES), [db]);

/** A manager keeps a disputed entry as it is, saying why (online: the member is told at once). */
export const keepDelivery = (id: number, note: string) =>
  api(`/deliveries/${id}/keep`, { method: 'POST', json: { note } });

export async function disputeDelivery(db: LocalDb, id: number, reason: string): Promise<void> {
  await api(`/deliveries/${id}/dispute`, { method: 'POST', json: { reason } });
  await refreshMyDeliveries(db);
}
