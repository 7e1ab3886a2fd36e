"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { commentContributionAction } from "@/app/(console)/contributions/actions";
import { formatUtc } from "../ui/format-utc";
import * as ui from "@/components/ui/styles";

export interface CommentView {
  id: number;
  parentId: number | null;
  authorName: string;
  body: string;
  createdAt: string;
}

/** Threaded discussion: comments and replies (any depth), each as plain text. */
export function CommentsThread({ contributionId, comments, canComment }: { contributionId: string; comments: CommentView[]; canComment: boolean }) {
  const children = new Map<number | null, CommentView[]>();
  const ids = new Set(comments.map((c) => c.id));
  for (const c of comments) {
    const parent = c.parentId !== null && ids.has(c.parentId) ? c.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const render = (parent: number | null, depth: number) => (
    <ul className={ui.cx(ui.thread.list, depth > 0 && "mt-2 border-l-2 border-border pl-4")}>
      {(children.get(parent) ?? []).map((c) => (
        <li key={c.id} className={ui.thread.item} data-testid="comment" data-comment-id={c.id}>
          <div className={ui.thread.head}>
            <span className="font-semibold">{c.authorName}</span>
            <span className="text-muted text-sm">{formatUtc(c.createdAt)}</span>
          </div>
          <p className={ui.thread.body} data-testid="comment-body">
            {c.body}
          </p>
          {canComment ? <CommentBox contributionId={contributionId} parentId={c.id} /> : null}
          {children.has(c.id) ? render(c.id, depth + 1) : null}
        </li>
      ))}
    </ul>
  );
  return (
    <section className="grid gap-2" aria-label="Discussion" data-testid="comments">
      <h2 className="text-[15px] font-[650]">Discussion</h2>
      {comments.length ? render(null, 0) : <p className="text-muted">No comments yet.</p>}
      {canComment ? <CommentBox contributionId={contributionId} parentId={null} /> : null}
    </section>
  );
}

function CommentBox({ contributionId, parentId }: { contributionId: string; parentId: number | null }) {
  const router = useRouter();
  const [open, setOpen] = useState(parentId === null);
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const uid = useId();
  if (!open) {
    return (
      <button type="button" className={ui.button("ghost", "sm")} onClick={() => setOpen(true)} data-testid="reply">
        Reply
      </button>
    );
  }
  return (
    <form
      className="mt-1.5 grid gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await commentContributionAction({ id: contributionId, body, parent_id: parentId });
          if (r.status === "error") {
            setError(r.error.fieldErrors?.map((f) => `${f.path === "body" ? "Comment" : f.path} ${f.message}`).join("; ") || r.error.message);
            return;
          }
          setError(null);
          setBody("");
          if (parentId !== null) setOpen(false);
          router.refresh();
        });
      }}
    >
      <label htmlFor={uid} className={parentId === null ? "text-sm font-semibold" : "sr-only"}>
        {parentId === null ? "Add a comment" : "Your reply"}
      </label>
      <textarea id={uid} rows={2} value={body} onChange={(e) => setBody(e.target.value)} maxLength={4000} aria-invalid={error ? true : undefined} data-testid={parentId === null ? "comment-input" : "reply-input"} />
      {error ? (
        <p className={ui.fieldError} role="alert">
          ✕ {error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={ui.button("secondary", "sm")} disabled={pending || !body.trim()} data-testid={parentId === null ? "comment-submit" : "reply-submit"}>
          {parentId === null ? "Comment" : "Reply"}
        </button>
        {parentId !== null ? (
          <button type="button" className={ui.button("ghost", "sm")} onClick={() => setOpen(false)}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
