/**
 * Every background job the server runs (app/services/jobs.server.ts). A feature adds its
 * definitions here, one line each, next to the service that owns the work.
 */
import { campaignRunJob, campaignStartJob, emailSchedulerJob } from "~/services/campaign-sender.server";
import { ratesRefreshJob } from "~/services/currency.server";
import { jobsCleanup, type JobDefinition } from "~/services/jobs.server";

export const JOB_DEFINITIONS: JobDefinition[] = [
  jobsCleanup,
  ratesRefreshJob,
  campaignRunJob,
  campaignStartJob,
  emailSchedulerJob,
];
