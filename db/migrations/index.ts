/**
 * Every migration, in order. Listed statically (not read from the folder at run time) so
 * that the same list works under tsx, in the Remix server bundle and in tests.
 * Names are timestamps: add new files at the end, never rename or edit landed ones.
 */
import type { Migration } from "kysely";
import * as m20261123053000 from "./20261123053000_site_settings";
import * as m20261123060000 from "./20261123060000_accounts";
import * as m20261123100000 from "./20261123100000_uploads";
import * as m20261123110000 from "./20261123110000_catalogue";
import * as m20261124090000 from "./20261124090000_jobs";
import * as m20261124100000 from "./20261124100000_qc";
import * as m20261124120000 from "./20261124120000_blog";
import * as m20261124130000 from "./20261124130000_email";
import * as m20261124140000 from "./20261124140000_marketplace";
import * as m20261126090000 from "./20261126090000_qc_content_hash";
import * as m20261126120000 from "./20261126120000_agent_link_forms";
import * as m20261126130000 from "./20261126130000_bulk_import";
import * as m20261127090000 from "./20261127090000_discovery";
import * as m20261128090000 from "./20261128090000_instances";
import * as m20261128100000 from "./20261128100000_job_leases";
import * as m20261128110000 from "./20261128110000_postgres_search_filters";
import * as m20261129090000 from "./20261129090000_crawled_items";
import * as m20261130090000 from "./20261130090000_secrets_in_database";
import * as m20261201090000 from "./20261201090000_category_counts";
import * as m20261207090000 from "./20261207090000_photo_fingerprints";
import * as m20261207120000 from "./20261207120000_shopper_words";
import * as m20261207130000 from "./20261207130000_time_zone";
import * as m20261207140000 from "./20261207140000_trends";
import * as m20261207150000 from "./20261207150000_price_alerts";
import * as m20261207160000 from "./20261207160000_qc_sku";
import * as m20261207170000 from "./20261207170000_photo_checks";

export const migrations: Record<string, Migration> = {
  "20261123053000_site_settings": m20261123053000,
  "20261123060000_accounts": m20261123060000,
  "20261123100000_uploads": m20261123100000,
  "20261123110000_catalogue": m20261123110000,
  "20261124090000_jobs": m20261124090000,
  "20261124100000_qc": m20261124100000,
  "20261124120000_blog": m20261124120000,
  "20261124130000_email": m20261124130000,
  "20261124140000_marketplace": m20261124140000,
  "20261126090000_qc_content_hash": m20261126090000,
  "20261126120000_agent_link_forms": m20261126120000,
  "20261126130000_bulk_import": m20261126130000,
  "20261127090000_discovery": m20261127090000,
  "20261128090000_instances": m20261128090000,
  "20261128100000_job_leases": m20261128100000,
  "20261128110000_postgres_search_filters": m20261128110000,
  "20261129090000_crawled_items": m20261129090000,
  "20261130090000_secrets_in_database": m20261130090000,
  "20261201090000_category_counts": m20261201090000,
  "20261207090000_photo_fingerprints": m20261207090000,
  "20261207120000_shopper_words": m20261207120000,
  "20261207130000_time_zone": m20261207130000,
  "20261207140000_trends": m20261207140000,
  "20261207150000_price_alerts": m20261207150000,
  "20261207160000_qc_sku": m20261207160000,
  "20261207170000_photo_checks": m20261207170000,
};
