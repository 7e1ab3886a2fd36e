import type { UserView } from "@/db/queries/users";
import { IconBadge } from "../ui/status";

/** Active, must change password, or deactivated: icon and words, not colour alone. */
export function UserStatusBadge({ user }: { user: Pick<UserView, "active" | "mustChangePassword"> }) {
  if (!user.active) return <IconBadge icon="⊘" label="Deactivated" tone="failed" testId="user-status" value="deactivated" />;
  if (user.mustChangePassword) return <IconBadge icon="!" label="Must change password" tone="paused" testId="user-status" value="must-change-password" />;
  return <IconBadge icon="✓" label="Active" tone="success" testId="user-status" value="active" />;
}
