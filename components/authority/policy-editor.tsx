"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { publishAuthorityPolicyAction } from "@/app/(console)/admin/authority/actions";
import type { Rule } from "@/lib/authority/rules";
import * as ui from "@/components/ui/styles";

/** Edits the default authority policy as JSON and publishes it as a new version (the server validates each rule). */
export function PolicyEditor({ rules }: { rules: Rule[] }) {
  const router = useRouter();
  const [text, setText] = useState(() => JSON.stringify(rules, null, 2));
  const [note, setNote] = useState("");
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = { editor: useId(), note: useId() };

  function publish() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setResult({ ok: false, message: `Not valid JSON: ${(e as Error).message}. Nothing was published.` });
      return;
    }
    setResult(null);
    startTransition(async () => {
      const r = await publishAuthorityPolicyAction({ rules: parsed, note: note.trim() || null });
      if (r.status === "ok") {
        setResult({ ok: true, message: `Published as version ${r.data.version}. New proposals are decided under it.` });
        router.refresh();
      } else setResult({ ok: false, message: r.error.message });
    });
  }

  return (
    <section className={ui.cx(ui.card, "grid gap-2.5 px-[18px] py-4")} aria-labelledby="policy-edit-title">
      <h2 id="policy-edit-title" className="text-[15px] font-[650]">
        Publish a new version
      </h2>
      <div className={ui.field}>
        <label htmlFor={ids.editor}>Rules (JSON list; see docs/governance.md, “Rules reference”)</label>
        <textarea id={ids.editor} className="font-mono text-sm leading-normal" rows={Math.min(30, text.split("\n").length + 1)} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="policy-editor" />
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.note}>Note (why; in the audit log)</label>
        <input type="text" id={ids.note} value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={ui.button("primary")} onClick={publish} disabled={pending} data-testid="policy-publish">
          {pending ? "Publishing…" : "Publish"}
        </button>
      </div>
      {result ? (
        <p className={result.ok ? ui.result.ok : ui.result.error} role={result.ok ? "status" : "alert"} data-testid="policy-result">
          {result.message}
        </p>
      ) : null}
    </section>
  );
}
