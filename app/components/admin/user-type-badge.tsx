import type { UserType } from "~/lib/permissions";
import { useT } from "~/i18n/i18n";

/** A user type's name in the page's language. */
export function useUserTypeLabel(): (userType: UserType) => string {
  const t = useT();
  return (userType) => {
    if (userType === "super_admin") return t("admin.userTypes.superAdmin");
    if (userType === "admin") return t("admin.userTypes.admin");
    return t("admin.userTypes.user");
  };
}

export function UserTypeBadge({ userType }: { userType: UserType }) {
  return <span className={`admin-badge admin-badge--${userType}`}>{useUserTypeLabel()(userType)}</span>;
}
