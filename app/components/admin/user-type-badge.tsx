import { USER_TYPE_LABELS, type UserType } from "~/lib/permissions";

export function UserTypeBadge({ userType }: { userType: UserType }) {
  return <span className={`admin-badge admin-badge--${userType}`}>{USER_TYPE_LABELS[userType]}</span>;
}
