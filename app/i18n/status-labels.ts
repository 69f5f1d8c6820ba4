/**
 * Names of fixed values that a page and a server-made message (a toast) both say: each key
 * named literally, so the catalogue check sees it.
 */
import type { Translate } from "./i18n";
import type { CommentStatus } from "~/schemas/blog-rules";

export function commentStatusLabel(t: Translate, status: CommentStatus): string {
  switch (status) {
    case "pending":
      return t("admin.status.awaitingModeration");
    case "approved":
      return t("admin.status.approved");
    case "rejected":
      return t("admin.status.rejected");
    case "spam":
      return t("admin.status.spam");
  }
}
