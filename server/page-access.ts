import { redirect } from "next/navigation";
import type { Principal } from "@/lib/auth/roles";
import { getPrincipal } from "./auth";

/** The signed-in person for a console page; signed out, the sign-in page, coming back to `path` after. */
export async function pageUser(path: string): Promise<Principal> {
  const user = await getPrincipal();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  return user;
}
