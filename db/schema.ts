/**
 * The database exactly as SQLite stores it: 0/1 integers for booleans, ISO-8601 text
 * for dates, JSON as text. Models map rows to domain objects; components never see rows.
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface SiteSettingsTable {
  key: string;
  value: string;
  description: string;
  updated_at: Generated<string>;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  /** argon2id hash; null for accounts that only sign in with Google */
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  avatar_url: string | null;
  is_admin: Generated<number>;
  email_verified: Generated<number>;
  /** a new address waiting for its verification code */
  pending_email: string | null;
  google_id: string | null;
  /** bumped on password change: access tokens carrying an older version are refused */
  token_version: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
  last_login_at: string | null;
  last_login_ip: string | null;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
}

export interface PermissionsTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
  expires_at: string | null;
  assigned_at: Generated<string>;
  assigned_by: number | null;
}

export interface UserPermissionsTable {
  user_id: number;
  permission_id: number;
  granted_at: Generated<string>;
  granted_by: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token */
  id: string;
  user_id: number;
  created_at: Generated<string>;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  family_issued_at: string;
  issued_at: Generated<string>;
  expires_at: string;
  revoked_at: string | null;
}

/** approve_email_change: mailed to the current address of an account without a password, to let its e-mail change */
export type CodePurpose = "register" | "verify_email" | "reset_password" | "change_email" | "approve_email_change";

export interface VerificationCodesTable {
  id: Generated<number>;
  email: string;
  purpose: CodePurpose;
  code_hash: string;
  user_id: number | null;
  attempts: Generated<number>;
  created_at: Generated<string>;
  expires_at: string;
  consumed_at: string | null;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  expires_at: string;
  used_at: string | null;
}

export interface RateLimitsTable {
  bucket: string;
  count: number;
  /** epoch milliseconds */
  window_ends_at: number;
}

export type UploadKind = "avatars" | "products" | "qc" | "blog";

export interface UploadsTable {
  id: Generated<number>;
  /** relative to UPLOADS_DIR (kind/yyyy-mm/uuid.webp); the URL is /uploads/<path> */
  path: string;
  kind: UploadKind;
  /** the user the name was issued to; only their actions delete the file */
  owner_id: number | null;
  bytes: Generated<number>;
  width: number | null;
  height: number | null;
  created_at: Generated<string>;
}

export type Platform = "weidian" | "taobao" | "tmall" | "1688";

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  parent_id: number | null;
  sort_order: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

/** How many products each category holds, by the two flags the storefront filters on (kept by triggers on products). */
export interface CategoryCountsTable {
  category_id: number;
  is_external: number;
  show_in_listing: number;
  products: number;
}

export interface ProductsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** JSON array of text blocks (imported descriptions) */
  description_items: Generated<string>;
  /** CNY × 100 */
  price_fen: number | null;
  category_id: number | null;
  /** JSON array of image URLs; the first is the thumbnail */
  images: Generated<string>;
  platform: Platform | null;
  platform_item_id: string | null;
  original_url: string | null;
  shop_name: string | null;
  is_external: Generated<number>;
  show_in_listing: Generated<number>;
  view_count: Generated<number>;
  /** approved QC photos (kept by triggers on qc_images) */
  qc_count: Generated<number>;
  created_by: number | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface ProductSkusTable {
  id: Generated<number>;
  product_id: number;
  sku_name: string;
  /** CNY × 100 */
  price_fen: Generated<number>;
  stock: Generated<number>;
  thumbnail_url: string | null;
  position: Generated<number>;
}

export interface CollectionsTable {
  user_id: number;
  product_id: number;
  created_at: Generated<string>;
}

export interface ProductsFtsTable {
  rowid: number;
  name: string;
  description: string;
  shop_name: string;
  /** the product's category name and its parent's */
  category: string;
  products_fts: string;
}

export interface ProductsWordsVocabTable {
  term: string;
  doc: number;
  cnt: number;
}

export interface SearchAliasesTable {
  id: Generated<number>;
  term: string;
  /** JSON array of strings */
  alternatives: string;
  both_ways: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface SearchTermsTable {
  term: string;
  day: string;
  searches: Generated<number>;
}

export interface ProductsGramsTable {
  rowid: number;
  grams: string;
  products_grams: string;
}

export interface ExchangeRatesTable {
  code: string;
  auto_rate: number | null;
  manual_rate: number | null;
}

export interface ExchangeRateStateTable {
  id: number;
  mode: Generated<"automatic" | "manual">;
  auto_updated_at: string | null;
  manual_updated_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
}

export type QcStatus = "pending" | "approved" | "rejected";

export interface QcImagesTable {
  id: Generated<number>;
  product_id: number;
  status: Generated<QcStatus>;
  /** null once rejected (the files are deleted) */
  image_url: string | null;
  thumb_url: string | null;
  width: number | null;
  height: number | null;
  thumb_width: number | null;
  thumb_height: number | null;
  bytes: Generated<number>;
  /** the photos sent together (one QC set) */
  set_key: string;
  uploaded_by: number | null;
  reviewed_by: number | null;
  reviewed_at: string | null;
  review_reason: string | null;
  /** SHA-256 (hex) of the file the uploader sent: the same photo twice is refused */
  content_hash: string | null;
  /** the SKU (by name) the photo shows; null: the product as a whole */
  sku_name: string | null;
  created_at: Generated<string>;
}

export interface AgentsTable {
  id: Generated<number>;
  name: string;
  template_weidian: string | null;
  template_taobao: string | null;
  template_tmall: string | null;
  template_1688: string | null;
  /** "platform template" per line: older link forms, only read back */
  read_patterns: Generated<string>;
  referral_param: string | null;
  referral_code: string | null;
  enabled: Generated<number>;
  sort_order: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface ListingWatchTable {
  product_id: number;
  checked_at: string | null;
  status: Generated<"ok" | "unavailable">;
  misses: Generated<number>;
  unavailable_since: string | null;
  last_error: string | null;
}

export interface PriceHistoryTable {
  id: Generated<number>;
  product_id: number;
  /** CNY × 100 */
  price_fen: number;
  recorded_at: Generated<string>;
}

export interface PriceAlertsTable {
  id: Generated<number>;
  user_id: number;
  product_id: number;
  /** CNY × 100: the price the shopper was last told of */
  price_fen: number;
  language: Generated<string>;
  created_at: Generated<string>;
  notified_at: string | null;
}

export interface ListingReportsTable {
  id: Generated<number>;
  product_id: number;
  user_id: number | null;
  note: string | null;
  created_at: Generated<string>;
}

export type JobStatus = "pending" | "running" | "done" | "failed";

export interface JobsTable {
  id: Generated<number>;
  name: string;
  key: string | null;
  /** JSON */
  payload: Generated<string>;
  /** epoch milliseconds */
  run_at: number;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: number | null;
  finished_at: number | null;
  created_at: Generated<string>;
  /** epoch ms: while running, the claiming instance renews it; past it, the job is taken again */
  lease_until: number | null;
  /** the instance running it (instanceId()) */
  claimed_by: string | null;
}

export type BlogPostStatus = "draft" | "published" | "scheduled" | "archived" | "private";
export type BlogCommentStatus = "pending" | "approved" | "rejected" | "spam";

export interface BlogCategoriesTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: string | null;
  parent_id: number | null;
  display_order: Generated<number>;
  is_visible: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface BlogPostsTable {
  id: Generated<number>;
  title: string;
  slug: string;
  excerpt: string | null;
  /** sanitised HTML */
  content: string;
  /** the content without tags (search, reading time) */
  content_text: Generated<string>;
  category_id: number | null;
  author_id: number | null;
  status: Generated<BlogPostStatus>;
  is_featured: Generated<number>;
  is_pinned: Generated<number>;
  reading_time: Generated<number>;
  featured_image: string | null;
  meta_title: string | null;
  meta_description: string | null;
  view_count: Generated<number>;
  published_at: string | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface BlogTagsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  created_at: Generated<string>;
}

export interface BlogPostTagsTable {
  post_id: number;
  tag_id: number;
}

export interface BlogCommentsTable {
  id: Generated<number>;
  post_id: number;
  parent_id: number | null;
  user_id: number;
  /** sanitised HTML: p, br, a, blockquote */
  content: string;
  status: Generated<BlogCommentStatus>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface BlogPostLikesTable {
  post_id: number;
  user_id: number;
  type: Generated<string>;
  created_at: Generated<string>;
}

export interface BlogCommentLikesTable {
  comment_id: number;
  user_id: number;
  type: Generated<string>;
  created_at: Generated<string>;
}

export interface BlogSettingsTable {
  id: number;
  comments_enabled: Generated<number>;
  comment_moderation: Generated<number>;
  posts_per_page: Generated<number>;
  updated_at: Generated<string>;
}

export interface BlogPostsFtsTable {
  rowid: number;
  title: string;
  excerpt: string;
  content_text: string;
  blog_posts_fts: string;
}

export type CampaignStatus = "draft" | "scheduled" | "sending" | "completed" | "failed" | "paused";
export type RecipientType = "all" | "active" | "inactive";
export type ScheduleType = "immediate" | "scheduled" | "recurring";
export type RecurringPattern = "daily" | "weekly" | "monthly";
export type CampaignRunStatus = "sending" | "paused" | "waiting" | "completed" | "failed";
export type SendStatus = "pending" | "sending" | "sent" | "failed" | "skipped";

export interface EmailTemplatesTable {
  id: Generated<number>;
  name: string;
  subject: string;
  html_content: string;
  text_content: string | null;
  /** JSON object of custom variables and their values */
  template_variables: Generated<string>;
  created_by: number | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface EmailCampaignsTable {
  id: Generated<number>;
  name: string;
  template_id: number | null;
  subject: string;
  html_content: string | null;
  text_content: string | null;
  recipient_type: Generated<RecipientType>;
  schedule_type: Generated<ScheduleType>;
  scheduled_at: string | null;
  recurring_pattern: RecurringPattern | null;
  status: Generated<CampaignStatus>;
  /** epoch milliseconds */
  next_run_at: number | null;
  created_by: number | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface EmailCampaignRunsTable {
  id: Generated<number>;
  campaign_id: number;
  seq: number;
  /** epoch milliseconds */
  scheduled_for: number;
  status: Generated<CampaignRunStatus>;
  recipient_type: RecipientType;
  subject: string;
  html_content: string;
  text_content: string | null;
  template_variables: Generated<string>;
  total_recipients: Generated<number>;
  sent_count: Generated<number>;
  failed_count: Generated<number>;
  skipped_count: Generated<number>;
  uncertain_count: Generated<number>;
  outage_count: Generated<number>;
  pause_reason: string | null;
  /** epoch milliseconds */
  resume_at: number | null;
  started_at: Generated<string>;
  paused_at: string | null;
  finished_at: string | null;
}

export interface EmailSendsTable {
  id: Generated<number>;
  run_id: number;
  campaign_id: number;
  user_id: number | null;
  status: Generated<SendStatus>;
  attempts: Generated<number>;
  /** epoch milliseconds */
  next_attempt_at: Generated<number>;
  uncertain: Generated<number>;
  email: string | null;
  last_error: string | null;
  /** epoch milliseconds */
  claimed_at: number | null;
  finished_at: string | null;
}

export interface EmailUnsubscribesTable {
  user_id: number;
  email: string;
  source: string;
  created_at: Generated<string>;
}

export type ImportRowStatus = "pending" | "imported" | "exists" | "duplicate" | "not_item" | "failed";

export interface ImportJobsTable {
  id: Generated<number>;
  created_by: number | null;
  source: "paste" | "csv" | "xlsx";
  file_name: string | null;
  status: Generated<"running" | "done">;
  total: Generated<number>;
  created_at: Generated<string>;
  finished_at: string | null;
}

export interface ImportRowsTable {
  id: Generated<number>;
  job_id: number;
  position: number;
  link: string;
  platform: Platform | null;
  item_id: string | null;
  status: Generated<ImportRowStatus>;
  message: string | null;
  product_id: number | null;
  updated_at: Generated<string>;
}

/** A marketplace's answer for an item, kept ten minutes for every instance (migration 20261129090000). */
export interface CrawledItemsTable {
  /** platform:itemId */
  key: string;
  /** the normalised item, JSON */
  value: string;
  /** epoch milliseconds */
  fetched_at: number;
}

/** A product picture's perceptual hashes (migration 20261207090000, app/services/photos/). */
export interface PhotoFingerprintsTable {
  id: Generated<number>;
  product_id: number;
  /** set for an approved QC photo; null for a product image */
  qc_image_id: number | null;
  image_url: string;
  /** 19 hashes of 16 hex digits, one after the other; null when the picture could not be read */
  hashes: string | null;
  /** the content's 256-bit detail hash, 64 hex digits (null with hashes) */
  detail: string | null;
  /** each window's 256-bit check, 64 hex digits a window (null with hashes, and in rows made before checks: the sync replaces those) */
  checks: string | null;
  /** why the picture could not be read */
  error: string | null;
  created_at: Generated<string>;
}

/** The ids of deleted fingerprints (a trigger writes them), for every instance's index. */
export interface PhotoFingerprintRemovalsTable {
  id: Generated<number>;
  fingerprint_id: number;
  created_at: Generated<string>;
}

/** Staff's word on two products found alike; product_id < other_product_id. */
export interface SameItemDecisionsTable {
  product_id: number;
  other_product_id: number;
  decision: "linked" | "dismissed";
  decided_by: number | null;
  created_at: Generated<string>;
}

export interface Database {
  photo_fingerprints: PhotoFingerprintsTable;
  photo_fingerprint_removals: PhotoFingerprintRemovalsTable;
  same_item_decisions: SameItemDecisionsTable;
  crawled_items: CrawledItemsTable;
  import_jobs: ImportJobsTable;
  import_rows: ImportRowsTable;
  site_settings: SiteSettingsTable;
  users: UsersTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  user_roles: UserRolesTable;
  user_permissions: UserPermissionsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  captchas: CaptchasTable;
  rate_limits: RateLimitsTable;
  uploads: UploadsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  category_counts: CategoryCountsTable;
  product_skus: ProductSkusTable;
  collections: CollectionsTable;
  products_fts: ProductsFtsTable;
  products_grams: ProductsGramsTable;
  products_words_vocab: ProductsWordsVocabTable;
  search_aliases: SearchAliasesTable;
  search_terms: SearchTermsTable;
  exchange_rates: ExchangeRatesTable;
  exchange_rate_state: ExchangeRateStateTable;
  jobs: JobsTable;
  qc_images: QcImagesTable;
  agents: AgentsTable;
  listing_watch: ListingWatchTable;
  price_history: PriceHistoryTable;
  price_alerts: PriceAlertsTable;
  listing_reports: ListingReportsTable;
  email_templates: EmailTemplatesTable;
  email_campaigns: EmailCampaignsTable;
  email_campaign_runs: EmailCampaignRunsTable;
  email_sends: EmailSendsTable;
  email_unsubscribes: EmailUnsubscribesTable;
  blog_categories: BlogCategoriesTable;
  blog_posts: BlogPostsTable;
  blog_tags: BlogTagsTable;
  blog_post_tags: BlogPostTagsTable;
  blog_comments: BlogCommentsTable;
  blog_post_likes: BlogPostLikesTable;
  blog_comment_likes: BlogCommentLikesTable;
  blog_settings: BlogSettingsTable;
  blog_posts_fts: BlogPostsFtsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export type SiteSettingRow = Selectable<SiteSettingsTable>;
