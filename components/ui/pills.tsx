import * as ui from "./styles";

const LOOK = {
  /** A person's roles. */
  chip: { list: "flex flex-wrap gap-1", item: ui.chip },
  /** A library entry's context tags. */
  tag: { list: "inline-flex flex-wrap gap-[3px]", item: ui.tag },
} as const;

/** Short words as small pills in a row (roles, tags); past `max`, how many more. */
export function Pills({ items, look, max }: { items: readonly string[]; look: keyof typeof LOOK; max?: number }) {
  const shown = max ? items.slice(0, max) : items;
  return (
    <span className={LOOK[look].list}>
      {shown.map((t) => (
        <span key={t} className={LOOK[look].item}>
          {t}
        </span>
      ))}
      {max && items.length > max ? <span className="text-muted text-sm">+{items.length - max}</span> : null}
    </span>
  );
}
