/**
 * Every background job the server runs (app/services/jobs.server.ts). A feature adds its
 * definitions here, one entry each; the definition lives with the service that owns the work.
 */
import { blogPublishJob } from "~/services/blog/posts.server";
import { importRunJob } from "~/services/bulk-import.server";
import { campaignRunJob, campaignStartJob, emailSchedulerJob } from "~/services/campaign-sender.server";
import { ratesRefreshJob } from "~/services/currency.server";
import { jobsCleanup, type JobDefinition } from "~/services/jobs.server";
import { listingWatchJob } from "~/services/listing-watch.server";
import { photoSyncJob } from "~/services/photos/photo-search.server";
import { priceAlertsJob } from "~/services/price-alerts.server";

/** Read when the runner starts (some depend on the configuration). */
export function jobDefinitions(): JobDefinition[] {
  return [
    jobsCleanup,
    ratesRefreshJob,
    blogPublishJob,
    campaignRunJob,
    campaignStartJob,
    emailSchedulerJob,
    importRunJob,
    listingWatchJob(),
    photoSyncJob,
    priceAlertsJob,
  ].filter((definition): definition is JobDefinition => definition !== null);
}
