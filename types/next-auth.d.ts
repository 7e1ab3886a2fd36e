import type { Role } from "@/lib/auth/roles";

declare module "next-auth" {
  interface Session {
    user: { id: string; name: string; email: string; roles: Role[] };
    /** When this session's sign-in happened (ms since the epoch). */
    authAt?: number | null;
  }
  interface User {
    id: string;
    name: string;
    email: string;
    roles: Role[];
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    id?: string;
    roles?: Role[];
    /** When the sign-in happened (ms since the epoch); see server/auth.ts sessionStart. */
    authAt?: number;
  }
}
