"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/server/action-result";
import type { ActionOutcome } from "./action-message";

/**
 * An action on one row of a list (revoke a token, delete a policy, disable a pattern, roll the library
 * back): `run(action, done)` calls the server action in a transition, keeps what it answered in
 * `outcome` — `done`'s words (a function of the action's data, or a string), or the refusal's message —
 * and refreshes the page's data once it went through. `pending` disables the rows' buttons meanwhile.
 */
export function useRowAction() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const run = <T>(action: () => Promise<ActionResult<T>>, done: string | ((data: T) => string)) =>
    start(async () => {
      const r = await action();
      if (r.status === "error") return setOutcome({ ok: false, text: r.error.message });
      setOutcome({ ok: true, text: typeof done === "string" ? done : done(r.data) });
      router.refresh();
    });
  return { pending, outcome, setOutcome, run };
}
