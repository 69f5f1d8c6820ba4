import { sql, type Kysely } from "kysely";

// Frozen: never edit once landed, never import app code.
// E-mail marketing (docs/decisions/018-email-campaigns.md): templates, campaigns, one run
// per execution or recurrence (its audience fixed when it starts), the per-recipient send
// log that is the truth of who got what, and unsubscribes.

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("email_templates")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("html_content", "text", (c) => c.notNull())
    .addColumn("text_content", "text")
    // JSON object: custom variables and their values ({"promoCode": "SAVE10"})
    .addColumn("template_variables", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("email_campaigns")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    // a template in use cannot be deleted (no ON DELETE: the foreign key refuses)
    .addColumn("template_id", "integer", (c) => c.references("email_templates.id"))
    .addColumn("subject", "text", (c) => c.notNull())
    // the body of a campaign without a template
    .addColumn("html_content", "text")
    .addColumn("text_content", "text")
    .addColumn("recipient_type", "text", (c) => c.notNull().defaultTo("all"))
    .addColumn("schedule_type", "text", (c) => c.notNull().defaultTo("immediate"))
    .addColumn("scheduled_at", "text")
    .addColumn("recurring_pattern", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    // epoch ms: the next run of a scheduled or recurring campaign
    .addColumn("next_run_at", "integer")
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("email_campaigns_template").on("email_campaigns").column("template_id").execute();
  await db.schema.createIndex("email_campaigns_status").on("email_campaigns").columns(["status", "next_run_at"]).execute();

  // One execution of a campaign (a recurring one has one per period). Content and audience
  // are fixed when it starts; the counters change in the same transaction as the log rows.
  await db.schema
    .createTable("email_campaign_runs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("campaign_id", "integer", (c) => c.notNull().references("email_campaigns.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    // epoch ms: the occurrence this run stands for (one run per occurrence)
    .addColumn("scheduled_for", "integer", (c) => c.notNull())
    // sending | paused | waiting (relay outage, resumes by itself) | completed | failed
    .addColumn("status", "text", (c) => c.notNull().defaultTo("sending"))
    .addColumn("recipient_type", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("html_content", "text", (c) => c.notNull())
    .addColumn("text_content", "text")
    .addColumn("template_variables", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("total_recipients", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped_count", "integer", (c) => c.notNull().defaultTo(0))
    // messages that were in flight when the process died: sent again, maybe twice
    .addColumn("uncertain_count", "integer", (c) => c.notNull().defaultTo(0))
    // relay-outage pauses in a row (the wait before resuming doubles)
    .addColumn("outage_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pause_reason", "text")
    // epoch ms: when a run waiting out a relay outage tries again
    .addColumn("resume_at", "integer")
    .addColumn("started_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("paused_at", "text")
    .addColumn("finished_at", "text")
    .addUniqueConstraint("email_campaign_runs_occurrence", ["campaign_id", "scheduled_for"])
    .execute();
  await db.schema.createIndex("email_campaign_runs_status").on("email_campaign_runs").column("status").execute();

  // The send log: one row per (run, recipient), the only record of who got what.
  // pending → sending (in flight) → sent | failed; pending → skipped (unsubscribed,
  // unverified or deleted when picked); sending → pending (temporary failure, or found
  // in flight after a crash: `uncertain`).
  await db.schema
    .createTable("email_sends")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("run_id", "integer", (c) => c.notNull().references("email_campaign_runs.id").onDelete("cascade"))
    // the run's campaign, for the statistics (the rows go with their run: no foreign key of
    // its own, so deleting a campaign needs no index on this column)
    .addColumn("campaign_id", "integer", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    // epoch ms: not before (a retry after a temporary failure)
    .addColumn("next_attempt_at", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("uncertain", "integer", (c) => c.notNull().defaultTo(0))
    // the address the message went to
    .addColumn("email", "text")
    .addColumn("last_error", "text")
    // epoch ms: when it was handed to the relay
    .addColumn("claimed_at", "integer")
    .addColumn("finished_at", "text")
    .addUniqueConstraint("email_sends_run_user", ["run_id", "user_id"])
    .execute();
  // Open rows only (pending or in flight): the sender's next row, what is left of a run.
  // A row leaves this index when it ends, so the index stays small and a row's last
  // change writes few pages. Queries repeat its condition to use it.
  await sql`CREATE INDEX email_sends_open ON email_sends (run_id, status, next_attempt_at, id) WHERE status IN ('pending', 'sending')`.execute(
    db,
  );
  await sql`CREATE INDEX email_sends_failed ON email_sends (campaign_id, id) WHERE status = 'failed'`.execute(db);
  await sql`CREATE INDEX email_sends_finished ON email_sends (finished_at) WHERE finished_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX email_sends_user ON email_sends (user_id)`.execute(db);

  await db.schema
    .createTable("email_unsubscribes")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    // link (the confirm form) or one-click (RFC 8058)
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("email_unsubscribes").execute();
  await db.schema.dropTable("email_sends").execute();
  await db.schema.dropTable("email_campaign_runs").execute();
  await db.schema.dropTable("email_campaigns").execute();
  await db.schema.dropTable("email_templates").execute();
}
