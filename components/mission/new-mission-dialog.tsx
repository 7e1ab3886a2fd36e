"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ChangeEvent, type FormEvent } from "react";
import { Dialog } from "../ui/dialog";
import { createMissionAction } from "@/app/(console)/missions/actions";
import type { FieldError } from "@/server/action-result";
import { queryKeys } from "../query-keys";
import * as ui from "@/components/ui/styles";

const EXAMPLE = `name: build-and-test
objective: The project builds and its tests pass.
phases:
  - name: EXECUTION
    agents:
      - name: build
        priority: critical
        steps:
          - tool: shell
            args: { command: npm, args: [run, build] }
`;

/** "New mission": paste YAML/JSON or upload a file; shows each field error as path: message. */
export function NewMissionDialog() {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [error, setError] = useState<{ message: string; fieldErrors: FieldError[] } | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = { text: useId(), file: useId(), errors: useId() };

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > 1_000_000) {
      setError({ message: `${file.name} is ${Math.round(file.size / 1024)} KB; a definition must be at most 1 MB.`, fieldErrors: [] });
      return;
    }
    setText(await file.text());
    setError(null);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    startTransition(async () => {
      const r = await createMissionAction({ text });
      if (r.status === "error") {
        setError({ message: r.error.message, fieldErrors: r.error.fieldErrors ?? [] });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.missions.list() });
      setOpen(false);
      setText("");
      router.push(`/missions/${r.data.id}`);
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) setError(null);
        setOpen(o);
      }}
      title="New mission"
      description="Paste a definition in YAML or JSON, or upload a file. Each invalid field is listed with what to fix."
      testId="new-mission-dialog"
      trigger={
        <button type="button" className={ui.button("primary")} data-testid="new-mission">
          New mission
        </button>
      }
    >
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <div className={ui.field}>
            <label htmlFor={ids.text}>Definition (YAML or JSON)</label>
            <textarea
              id={ids.text}
              className="font-mono text-sm leading-normal"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={16}
              spellCheck={false}
              placeholder={EXAMPLE}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? ids.errors : undefined}
              data-testid="mission-definition"
            />
          </div>
          <div className={ui.field}>
            <label htmlFor={ids.file}>Or upload a .yaml, .yml or .json file</label>
            <input id={ids.file} type="file" accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml" onChange={onFile} />
          </div>
          {error ? (
            <div id={ids.errors} className={ui.errorBox} role="alert" data-testid="mission-errors">
              <p>{error.message}</p>
              {error.fieldErrors.length ? (
                <ul className={ui.fieldErrors}>
                  {error.fieldErrors.map((f, i) => (
                    <li key={i}>
                      <code>{f.path || "(definition)"}</code>: {f.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <footer className="flex justify-end gap-2">
            <button type="button" className={ui.button("secondary")} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={ui.button("primary")} disabled={pending} data-testid="create-mission">
              {pending ? "Creating…" : "Create mission"}
            </button>
          </footer>
        </form>
    </Dialog>
  );
}
