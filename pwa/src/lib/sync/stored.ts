// What this device keeps of each synced entity: the server's records (`records.ts`,
// generated from the server's structs) with local changes on top. Types only, and
// nothing of entities/ or local-db: both import from here (docs/architecture.md).
import type {
  CourseRecord,
  EnrolmentRecord,
  LessonOutline,
  NotificationRecord,
  OrderRecord,
  PostRecord,
  ProductRecord,
  RateRecord,
  SurveyRecord,
} from './records';
import type { DeliveryRecord, PriceRecord, SurveyAnswers } from './protocol';

/** What every synced record has on this device. */
export interface LocalRecord {
  uid: string;
  /** The server version this copy is based on; absent until the server has it. */
  version?: number;
}

/**
 * A synced record as this device keeps it: the server's record with local changes on
 * top. The fields in `Unsent` are absent until the server has sent the record (a listing
 * made offline has no `id` yet).
 */
export type Kept<R, Unsent extends keyof R = never> = Omit<R, Unsent | 'uid' | 'version'> &
  Partial<Pick<R, Unsent>> &
  LocalRecord;

/**
 * An application as the server sends it (its answers flat beside its status). One made
 * on this phone has its answers and status only until the server's copy arrives, and
 * names the person a field agent registered here by `person_uid` until the server does.
 */
export type Application = Kept<
  SurveyRecord,
  | 'id'
  | 'user_id'
  | 'user'
  | 'created_by'
  | 'active'
  | 'admin_comment'
  | 'reviewed_at'
  | 'created_at'
  | 'updated_at'
  | keyof SurveyAnswers
> & { person_uid?: string };

/** A comment under a post, as kept here. */
export interface StoredComment {
  uid: string;
  /** The server's id, once it has the comment. */
  id?: number;
  post_uid: string;
  parent_uid: string | null;
  author_name: string;
  body: string;
  likes: number;
  liked: boolean;
  mine: boolean;
  created_at: string;
  /** Written here and not yet on the server. */
  pending?: boolean;
}

/** A course as the server sends it: its outline, not its lessons' text. */
export type Course = Kept<CourseRecord>;

export interface Question {
  prompt: string;
  choices: string[];
  answer: number;
  explanation: string;
}

export interface Lesson extends LessonOutline {
  module_id: number;
  body: string;
  questions: Question[];
}

/** An enrolment; one made offline waits for the server's course id, pass mark and dates. */
export type Enrolment = Kept<EnrolmentRecord, 'course_id' | 'pass_mark' | 'created_at' | 'updated_at'>;

/** A course kept for offline reading. */
export interface CourseContent extends LocalRecord {
  version: number;
  lessons: Lesson[];
  pictures: string[];
  bytes: number;
  saved_at: string;
}

/** A rate as the server sends it, kept by its currency. */
export type Rate = Kept<RateRecord>;

/** A post as the server sends it (its content is HTML the server sanitised). */
export type Post = Kept<PostRecord>;

export type Notification = Kept<NotificationRecord>;

/** An order as the server sends it; one placed offline waits for the server's id, fee and payment. */
export type Order = Kept<OrderRecord, 'id' | 'platform_fee_bp' | 'payment_status' | 'unpaid_until' | 'updated_at'>;

/** A price recorded on this phone, as it was typed. */
export type StoredPrice = PriceRecord & { recorded_at: string };

/** A delivery a cooperative's manager weighed in on this phone (`delivery.record`). */
export type StoredDelivery = DeliveryRecord & { recorded_at: string };

/** A product as the server sends it (docs/api.md, "Products"); one listed offline has no id yet. */
export type Product = Kept<ProductRecord, 'id' | 'low_stock'>;
