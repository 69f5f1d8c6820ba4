/**
 * The back office's names of fixed values (statuses), in the page's language: each key is
 * named literally, so the catalogue check sees it.
 */
import type { Translate } from "~/i18n/i18n";
import type { PostStatus } from "~/schemas/blog-rules";
export { commentStatusLabel } from "~/i18n/status-labels";
import type { Platform } from "~/schemas/catalogue-rules";

export function postStatusLabel(t: Translate, status: PostStatus): string {
  switch (status) {
    case "draft":
      return t("admin.status.draft");
    case "published":
      return t("admin.status.published");
    case "scheduled":
      return t("admin.status.scheduled");
    case "archived":
      return t("admin.status.archived");
    case "private":
      return t("admin.status.private");
  }
}

export function platformLabel(t: Translate, platform: Platform): string {
  switch (platform) {
    case "weidian":
      return t("admin.platforms.weidian");
    case "taobao":
      return t("admin.platforms.taobao");
    case "tmall":
      return t("admin.platforms.tmall");
    case "1688":
      return t("admin.platforms.p1688");
  }
}
