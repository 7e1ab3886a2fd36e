"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import * as ui from "@/components/ui/styles";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const ids = { email: useId(), password: useId(), error: useId() };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email and password.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", { email, password, redirect: false, callbackUrl });
      if (!res || res.error) {
        setError(
          res?.error === "CredentialsSignin" || res?.status === 401
            ? "Email or password is incorrect. Check both and try again."
            : `Sign-in failed (${res?.error ?? "no answer from the server"}). Try again; if it persists, check that the server is running.`,
        );
        setPending(false);
        return;
      }
      router.replace(callbackUrl);
      router.refresh();
    } catch {
      setError("Could not reach the server to sign in. Check that Faultline is running and try again.");
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate data-testid="login-form">
      <div className={ui.field}>
        <label htmlFor={ids.email}>Email</label>
        <input id={ids.email} name="email" type="email" autoComplete="username" required aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} />
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.password}>Password</label>
        <input id={ids.password} name="password" type="password" autoComplete="current-password" required aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} />
      </div>
      {error ? (
        <p id={ids.error} className={ui.result.error} role="alert" data-testid="login-error">
          {error}
        </p>
      ) : null}
      <button type="submit" className={ui.button("primary", "block")} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
