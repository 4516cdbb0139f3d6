// Generated from the server's records (server/src/api/sync/records.rs) by its tests; do not edit.
// Regenerate: UPDATE_TS_BINDINGS=1 cargo test -p mavuno --lib records

/** The certifications a listing may carry. */
export const CERTIFICATIONS = ["organic","fair-trade","rainforest-alliance"] as const;
export type Certification = (typeof CERTIFICATIONS)[number];

export const CATEGORIES = ["vegetables","fruits","grains","dairy","beverages","herbs"] as const;

export const PART_STATUSES = ["processing","shipped","delivered","cancelled"] as const;

export const COURSE_CATEGORIES = ["farming","marketing","finance","certification","climate","processing"] as const;

export const LEVELS = ["beginner","intermediate","advanced"] as const;

export const BLOG_CATEGORIES = ["General","Tourism","Conservation","Community","Technology","Education"] as const;

export type ProductRecord = { id: number, 
/**
 * Made by the client that listed it; the same on every device.
 */
uid: string, title: string, 
/**
 * The name in English, French or Kiswahili, when the farmer gave it: a buyer
 * reading that language sees it instead of `title`.
 */
title_en: string | null, title_fr: string | null, title_sw: string | null, description: string, 
/**
 * The description in English, French and Kiswahili, when the farmer gave it.
 */
description_en: string | null, description_fr: string | null, description_sw: string | null, category: Category, unit: Unit, 
/**
 * Units in stock.
 */
quantity: number, 
/**
 * The original price (USD), struck through when it differs from `current_price`.
 */
price: number, 
/**
 * The price buyers pay (USD).
 */
current_price: number, currency: string, status: ProductStatus, image_urls: Array<ProductImage>, 
/**
 * The photos' hashes, for edits.
 */
images: Array<string>, harvest_date: string | null, expiry_date: string | null, 
/**
 * Of `domain::products::CERTIFICATIONS`.
 */
certifications: Array<Certification>, tags: Array<string>, shipping: ProductShipping, min_order: number, max_order: number | null, rating: number, reviews: number, farmer: ProductFarmer, 
/**
 * At or under `products::LOW_STOCK` units.
 */
low_stock: boolean, version: number, created_at: string, updated_at: string, 
/**
 * Hidden from the marketplace by an admin, with the reason its farmer reads
 * (only its farmer and admins ever see a hidden product).
 */
hidden: Hidden | null, 
/**
 * A cooperative's lot (docs/cooperatives.md) rather than one farmer's product.
 */
lot: ProductLot | null, };

export type ProductImage = { 
/**
 * 1024 px, for the detail page.
 */
url: string, 
/**
 * 320 px, for cards and lists.
 */
thumbnail_url: string, };

export type ProductShipping = { available: boolean, 
/**
 * USD.
 */
cost: number, estimated_days: string | null, };

export type ProductFarmer = { id: number, name: string, location: string | null, rating: number, 
/**
 * Their farmer application was approved.
 */
verified: boolean, };

export type Hidden = { reason: string, at: string, };

export type ProductLot = { id: number, cooperative_id: number, cooperative_name: string, 
/**
 * A key of the prices' crop list.
 */
crop: string, 
/**
 * A, B or C.
 */
grade: string, members: number, 
/**
 * The first and last delivery's day (YYYY-MM-DD).
 */
collected_from: string, collected_to: string, pickup: string, 
/**
 * The days it is collected on (`mon` … `sun`), in the week's order.
 */
pickup_days: Array<string>, };

export type Category = "vegetables" | "fruits" | "grains" | "dairy" | "beverages" | "herbs";

export type Unit = "kg" | "piece";

export type ProductStatus = "active" | "inactive";

export type FavouriteRecord = { uid: string, created_at: string, };

export type OrderRecord = { id: number, 
/**
 * Made by the phone that placed it; the idempotency key.
 */
uid: string, 
/**
 * Follows from the parts: the least advanced live part, or cancelled.
 */
status: PartStatus, currency: string, subtotal_cents: number, shipping_cents: number, total_cents: number, payment_method: PaymentMethod, delivery: Delivery, 
/**
 * The platform fee taken from each part's sale when it is delivered, in hundredths
 * of a percent (docs/settings.md).
 */
platform_fee_bp: number, shipping_address: OrderAddress, 
/**
 * Where the latest mobile-money payment stands (initiating, pending,
 * succeeded, failed, expired); none before the first.
 */
payment_status: PaymentStatus | null, 
/**
 * After a refused or expired payment: until when the order keeps its stock for the
 * buyer to pay again or choose cash on delivery (docs/payments.md); none otherwise.
 */
unpaid_until: string | null, parts: Array<OrderPart>, events: Array<OrderEvent>, version: number, created_at: string, updated_at: string, };

export type OrderAddress = { first_name: string, last_name: string, email: string, phone: string, address: string, city: string, postal_code: string, country: string, };

export type OrderPart = { id: number, farmer: OrderFarmer, status: PartStatus, subtotal_cents: number, shipping_cents: number, cancel_reason: string | null, 
/**
 * When its farmer accepted it (`PATCH` with status `accepted`): being prepared.
 */
accepted_at: string | null, lines: Array<OrderLine>, };

export type OrderFarmer = { id: number, name: string, location: string | null, 
/**
 * For the buyer of this order (to call or write to the farmer).
 */
phone: string | null, 
/**
 * Out of 5, from their reviewed products; 0 when none.
 */
rating: number, };

export type OrderLine = { product_id: number, product_uid: string, title: string, 
/**
 * The product's name in English, French or Kiswahili when the order was placed,
 * if it had one: a reader of that language sees it instead of `title`.
 */
title_en: string | null, title_fr: string | null, title_sw: string | null, unit: Unit, quantity: number, unit_price_cents: number, line_total_cents: number, };

export type OrderEvent = { 
/**
 * The part it concerns; none for the whole order (placed).
 */
part_id: number | null, 
/**
 * placed, accepted (by the part's farmer), shipped, delivered, cancelled.
 */
kind: 'placed' | 'accepted' | PartStatus, note: string | null, at: string, };

export type PartStatus = "processing" | "shipped" | "delivered" | "cancelled";

export type PaymentMethod = "mobile_money" | "cash_on_delivery";

export type Delivery = "delivery" | "pickup";

export type PaymentStatus = "initiating" | "pending" | "succeeded" | "failed" | "expired";

export type CourseRecord = { id: number, 
/**
 * The same on every device (enrolments name courses by it).
 */
uid: string, title: string, description: string, category: CourseCategory, level: Level, language: CourseLanguage, instructor: Instructor, 
/**
 * The cover, 1024 and 320 px.
 */
image_url: string | null, thumbnail_url: string | null, 
/**
 * The pictures' hashes, for the admin's form.
 */
cover_image: string | null, instructor_photo: string | null, 
/**
 * USD; 0 is free.
 */
price: number, currency: string, certificate: boolean, tags: Array<string>, 
/**
 * "What you'll learn".
 */
outcomes: Array<string>, requirements: Array<string>, rating: number, reviews: number, enrolled: number, lessons: number, 
/**
 * The lessons' minutes added up.
 */
minutes: number, 
/**
 * What "Download for offline" fetches: the lessons and their pictures.
 */
download_bytes: number, published: boolean, modules: Array<CourseModule>, version: number, created_at: string, updated_at: string, };

export type Instructor = { name: string, title: string, bio: string, 
/**
 * 320 px.
 */
photo_url: string | null, };

export type CourseModule = { id: number, title: string, minutes: number, lessons: Array<LessonOutline>, };

export type LessonOutline = { id: number, title: string, kind: LessonKind, minutes: number, };

export type CourseCategory = "farming" | "marketing" | "finance" | "certification" | "climate" | "processing";

export type Level = "beginner" | "intermediate" | "advanced";

export type CourseLanguage = "en" | "fr" | "sw";

export type LessonKind = "reading" | "quiz";

export type EnrolmentRecord = { 
/**
 * The course's uid (the record's id in sync).
 */
uid: string, course_id: number, status: EnrolmentStatus, progress: Progress, completed_at: string | null, certificate: Certificate | null, 
/**
 * A quiz is passed at this score (percent).
 */
pass_mark: number, version: number, created_at: string, updated_at: string, };

export type EnrolmentStatus = "active" | "refunded";

export type Progress = { 
/**
 * Lessons done: readings marked complete, quizzes passed (in course order).
 */
completed: Array<number>, 
/**
 * Quiz lesson id → results.
 */
quizzes: { [key in number]: QuizResult }, 
/**
 * The lesson opened last (where "Continue" resumes).
 */
last_lesson_id: number | null, 
/**
 * Completed lessons out of all the course's lessons (0 to 100).
 */
percent: number, };

export type QuizResult = { 
/**
 * The best score (percent).
 */
best: number, attempts: number, passed: boolean, };

export type Certificate = { code: string, learner_name: string, course_title: string, issued_at: string, 
/**
 * The PDF (add `?lang=fr` or `sw` for another language).
 */
pdf_url: string, };

export type PostRecord = { id: number, 
/**
 * The post's id in sync.
 */
uid: string, title: string, description: string, 
/**
 * Sanitised HTML.
 */
full_content: string, author: string, category: BlogCategory, read_time: string, 
/**
 * en, fr or sw.
 */
language: CourseLanguage, published: boolean, 
/**
 * The picture, 1024 px wide (relative to this server), or null.
 */
image_url: string | null, 
/**
 * The picture 320 px wide, for lists.
 */
thumbnail_url: string | null, 
/**
 * When it was published, else written.
 */
date: string, published_at: string | null, created_at: string, updated_at: string, };

export type BlogCategory = "General" | "Tourism" | "Conservation" | "Community" | "Technology" | "Education";

export type RateRecord = { currency: string, 
/**
 * How many of `currency` one US dollar buys (whole units).
 */
francs_per_usd: number, 
/**
 * The day the rate is from (YYYY-MM-DD).
 */
as_of: string, 
/**
 * When it was set.
 */
updated_at: string, };

export type SurveyRecord = { id: number, 
/**
 * Made by the client that created it; the same on every device.
 */
uid: string, 
/**
 * The applicant's account.
 */
user_id: number, user: PersonName, created_by: PersonName, status: SurveyStatus, active: boolean, admin_comment: string | null, reviewed_at: string | null, version: number, created_at: string, updated_at: string, land_size: string | null, work_type: string | null, cooperative_name: string | null, income_sources: string | null, seed_type: string | null, seed_source: string | null, fertilizers: string | null, field_preparation: string | null, farming_techniques: string | null, planting_season: string | null, higher_season: string | null, higher_season_reason: string | null, average_yield: string | null, challenges: string | null, post_harvest_losses: boolean, 
/**
 * 0 to 100; 0 unless `post_harvest_losses`.
 */
loss_percentage: number, selling_method: string | null, selling_challenges: boolean, 
/**
 * Only when `selling_challenges`.
 */
selling_challenges_explanation: string | null, mobile_interest: boolean, improvements_production: string | null, improvements_selling: string | null, additional_comments: string | null, };

export type PersonName = { first_name: string, last_name: string, email: string | null, 
/**
 * The applicant's number (null for the author, and when they gave none).
 */
phone_number: string | null, 
/**
 * The applicant reaches MAVUNO by a basic phone (USSD and SMS, no app).
 */
basic_phone: boolean, };

export type SurveyStatus = "draft" | "pending" | "approved" | "rejected" | "re-submitted";

export type NotificationRecord = { uid: string, kind: string, 
/**
 * Where opening it goes: a path of the app.
 */
link: string, 
/**
 * The words its text is made of, by name.
 */
params: Record<string, string>, read: boolean, created_at: string, };
