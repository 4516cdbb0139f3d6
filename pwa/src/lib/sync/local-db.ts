// All local persistence of the PWA, in one Dexie schema
// (docs/architecture.md). One database per account, so people sharing a phone never see
// each other's records or queued changes.
import Dexie, { type EntityTable } from 'dexie';
import type { Role } from '../account';
import type {
  Application,
  Course,
  CourseContent,
  Enrolment,
  Kept,
  Notification,
  Order,
  Post,
  Product,
  Rate,
  StoredComment,
  StoredDelivery,
  StoredPrice,
} from './stored';
import type { FavouriteRecord } from './records';
import type { Mutation, MutationResult } from './protocol';

/** A queued change. `rejected` ones stay until the person fixes or drops them. */
export interface OutboxEntry extends Mutation {
  /** `sent`: answered by the server, kept until a pull confirms it (docs/sync.md). */
  state: 'queued' | 'sent' | 'rejected';
  /** The record it touches (`args.uid`), to find a record's pending changes. */
  uid: string;
  result?: MutationResult;
}

/** A change a pull confirmed, kept a day (`CONFIRMED_KEPT_MS`): a server restored from
 * its off-site copy, which trails by seconds, may lack it; it is then sent again. */
export interface ConfirmedEntry extends Mutation {
  uid: string;
  /** When a pull confirmed it (ms since the epoch). */
  confirmed_at: number;
}

export type { Kept, LocalRecord } from './stored';

export interface LocalPerson {
  id: number;
  first_name: string;
  last_name: string;
  /** `null` for a person with a phone number only. */
  email: string | null;
  phone_number: string | null;
  country: string | null;
  location: string | null;
  role: Role;
  /** The `person.register` uid, for a person a field agent registered from a phone. */
  uid?: string | null;
  /** An application of theirs waits for a decision on the server: a second would be refused. */
  application_waiting?: boolean;
  /** They started an application themselves (in the app or by USSD) and not sent it. */
  own_draft?: boolean;
}

/** A person registered on this phone (`person.register`), kept until the server's list has them. */
export interface LocalRegistration {
  uid: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  country: string;
  location?: string;
}

export interface LocalPhoto {
  /** SHA-256 of the bytes: the upload address and the name the server keeps. */
  hash: string;
  blob: Blob;
  uploaded: boolean;
}

export interface MetaEntry {
  key: string;
  value: unknown;
}

export class LocalDb extends Dexie {
  outbox!: EntityTable<OutboxEntry, 'mutation_id'>;
  /** Changes pulls confirmed in the last day, should the server come back from its copy without them. */
  confirmed!: EntityTable<ConfirmedEntry, 'mutation_id'>;
  surveys!: EntityTable<Application, 'uid'>;
  meta!: EntityTable<MetaEntry, 'key'>;
  /** A field agent's copy of the people they can visit (GET /agent/people). */
  people!: EntityTable<LocalPerson, 'id'>;
  /** The catalogue (products on sale) and a farmer's own products, by `uid`. */
  products!: EntityTable<Product, 'uid'>;
  /** Photos taken on this phone, resized, kept until the server has them. */
  photos!: EntityTable<LocalPhoto, 'hash'>;
  /** The person's favourite products, by product `uid` (synced). */
  favourites!: EntityTable<Kept<FavouriteRecord>, 'uid'>;
  /** Orders the person bought or sells in, by the order's `uid` (synced). */
  orders!: EntityTable<Order, 'uid'>;
  /** The published courses (their outline, no lesson text), by `uid` (synced, public). */
  courses!: EntityTable<Course, 'uid'>;
  /** The person's enrolments and progress, by the course's `uid` (synced). */
  enrolments!: EntityTable<Enrolment, 'uid'>;
  /** Courses downloaded for offline reading: lessons and picture addresses, by the course's `uid`. */
  courseContent!: EntityTable<CourseContent, 'uid'>;
  /** News posts with their content, by `uid`: the latest ones (synced, public) and those opened. */
  blogs!: EntityTable<Post, 'uid'>;
  /** When a post was last opened here, by its `uid`: an opened post stays readable offline. */
  openedPosts!: EntityTable<{ uid: string; at: number }, 'uid'>;
  /** Comments under posts, by `uid`: as last fetched, and those written here not yet sent. */
  comments!: EntityTable<StoredComment, 'uid'>;
  /** The exchange rates in use, by currency (synced, public; docs/money.md). */
  rates!: EntityTable<Rate, 'uid'>;
  /** The person's notifications, by `uid` (synced; marked read with `notification.read`). */
  notifications!: EntityTable<Notification, 'uid'>;
  /** People a field agent registered on this phone, until the server's list has them. */
  registrations!: EntityTable<LocalRegistration, 'uid'>;
  /** Market prices a field agent recorded on this phone (`price.record`), the newest kept. */
  recordedPrices!: EntityTable<StoredPrice, 'uid'>;
  /** Deliveries a cooperative's manager weighed in on this phone (`delivery.record`), the newest kept. */
  weighed!: EntityTable<StoredDelivery, 'uid'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      outbox: 'mutation_id, state, uid',
      surveys: 'uid',
      meta: 'key',
    });
    this.version(2).stores({ people: 'id' });
    this.version(3).stores({ products: 'uid, id' });
    this.version(4).stores({ photos: 'hash' });
    this.version(5).stores({ favourites: 'uid' });
    this.version(6).stores({ orders: 'uid' });
    this.version(7).stores({ courses: 'uid, id', enrolments: 'uid', courseContent: 'uid' });
    this.version(8).stores({ blogs: 'uid, id', openedPosts: 'uid, at' });
    this.version(9).stores({ comments: 'uid, post_uid' });
    this.version(10).stores({ rates: 'uid' });
    this.version(11).stores({ registrations: 'uid' });
    this.version(12).stores({ notifications: 'uid, created_at' });
    this.version(13).stores({ recordedPrices: 'uid' });
    this.version(14).stores({ confirmed: 'mutation_id, confirmed_at' });
    this.version(15).stores({ weighed: 'uid' });
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.meta.get(key))?.value as T | undefined;
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    await this.meta.put({ key, value });
  }
}

const open = new Map<number | 'guest', LocalDb>();

/** The local database of one account, or of a visitor (`guest`: the public catalogue only). */
export function localDb(userId: number | 'guest'): LocalDb {
  let db = open.get(userId);
  if (!db) {
    db = new LocalDb(`mavuno-${userId}`);
    open.set(userId, db);
  }
  return db;
}
