/**
 * The console's shared looks, as Tailwind utilities in one place: buttons, badges, notices, results and
 * form fields. Components compose these instead of repeating utility strings; colours are the theme's
 * tokens (app/globals.css), so light and dark both read.
 */

/** Joins class names, skipping empty ones. */
export const cx = (...parts: Array<string | false | null | undefined>) => parts.filter(Boolean).join(" ");

// Each property is set by exactly one of base / variant / size (utilities of one property must not compete).
const BUTTON_BASE =
  "inline-flex cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md border font-[550] no-underline disabled:cursor-not-allowed disabled:opacity-60 [&_kbd]:rounded [&_kbd]:border [&_kbd]:border-current [&_kbd]:px-1 [&_kbd]:text-[11px] [&_kbd]:opacity-75";
const BUTTON_VARIANT = {
  primary: "border-transparent bg-accent text-accent-fg enabled:hover:brightness-110",
  secondary: "border-border-strong bg-surface text-fg enabled:hover:bg-surface-2",
  danger: "border-failed bg-surface text-failed enabled:hover:bg-failed-bg",
  ghost: "border-border bg-transparent text-fg hover:bg-surface-2",
  plain: "border-border-strong bg-surface text-fg enabled:hover:bg-surface-2",
} as const;
export type ButtonVariant = keyof typeof BUTTON_VARIANT;

/** A button's classes: variant, and `sm` (compact) or `block` (full width). */
export function button(variant: ButtonVariant = "secondary", ...mods: Array<"sm" | "block">): string {
  return cx(BUTTON_BASE, BUTTON_VARIANT[variant], mods.includes("sm") ? "px-2 py-0.5 text-sm" : "min-h-8 px-3 py-1.5", mods.includes("block") && "w-full");
}

/** Status colours: text and background of a tone. */
export const TONE = {
  success: "text-success bg-success-bg",
  partial: "text-partial bg-partial-bg",
  failed: "text-failed bg-failed-bg",
  running: "text-running bg-running-bg",
  paused: "text-paused bg-paused-bg",
  queued: "text-queued bg-queued-bg",
  neutral: "text-neutral bg-neutral-bg",
} as const;
export type Tone = keyof typeof TONE;
export const toneOf = (t: string): Tone => (t in TONE ? (t as Tone) : "neutral");

/** The text colour alone of a tone (neutral is the body text). */
export const TONE_TEXT: Record<Tone, string> = { success: "text-success", partial: "text-partial", failed: "text-failed", running: "text-running", paused: "text-paused", queued: "text-queued", neutral: "text-fg" };

/** A pill with a status colour; `lg` for a page's main status. */
export function badge(tone: string = "neutral", size?: "lg"): string {
  return cx("inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border border-current font-semibold", TONE[toneOf(tone)], size === "lg" ? "px-[11px] py-[3px] text-[13.5px]" : "px-2 py-px text-[12px]");
}

/** An explanation set apart (why a mission ended, a risk note): a quiet block with a rule on its left. */
export const explanation = "m-0 rounded-md border-l-[3px] border-border-strong bg-surface-2 px-2.5 py-2";
/** The details of a timeline event (a recovery, a library probe): tight paragraphs. */
export const eventDetails = "my-1 text-[13.5px] [&_p]:mt-0 [&_p]:mb-1";
/** A timeline line that succeeded or failed (a step's result, a resolution). */
export const outcome = { ok: "m-0 rounded bg-success-bg px-2 py-[5px]", error: "m-0 rounded bg-failed-bg px-2 py-[5px]" } as const;

export const notice = "m-0 rounded-md border border-dashed border-border-strong bg-surface-2 px-2.5 py-2";
export const result = { ok: "m-0 rounded-md border border-success bg-success-bg px-2.5 py-2 text-fg", error: "m-0 rounded-md border border-failed bg-failed-bg px-2.5 py-2 text-fg" } as const;
export const errorBox = "rounded-md border border-failed bg-failed-bg px-3.5 py-3 [&_p]:mb-1.5 [&_p]:mt-0";
export const empty = "rounded-md border border-dashed border-border-strong bg-surface p-7 text-center";
export const card = "rounded-md border border-border bg-surface shadow-card";
export const field = "grid gap-1 [&_label]:text-[13px] [&_label]:font-[550]";
/** A checkbox or radio with its words (roles, how a user gets a password), several on a line. */
export const check = "mr-3.5 inline-flex items-center gap-1.5 text-[13.5px]";
/** A fieldset that only groups (no frame): its legend reads like a field's label. */
export const fieldset = "m-0 grid gap-1 border-0 p-0 [&>legend]:mb-1 [&>legend]:p-0";
/** The list of a form's field errors (in an error box). */
export const fieldErrors = "mx-0 mt-1 mb-0 grid gap-[3px] pl-[18px]";
/** One field's error message, under the field. */
export const fieldError = "m-0 text-sm font-[550] text-failed";
export const banner = { warning: "rounded-md border border-paused bg-paused-bg px-3 py-2 text-[13.5px] text-fg", error: "rounded-md border border-failed bg-failed-bg px-3 py-2 text-[13.5px] text-fg" } as const;

/** A padded card section of a form or an admin page. */
export const panel = "grid content-start gap-2.5 rounded-md border border-border bg-surface px-4 py-3.5 shadow-card";
/** A responsive grid of form fields; `ui.gridFoot` spans its whole width. */
export const formGrid = "grid grid-cols-[repeat(auto-fit,minmax(240px,1fr))] items-start gap-x-4 gap-y-2.5";
export const gridFoot = "col-span-full";
/** A discussion (a contribution's reviews and comments): a list of cards, each a head (who, when) and a plain-text body. */
export const thread = { list: "m-0 grid list-none gap-2 p-0", item: "rounded-md border border-border bg-surface px-3 py-2", head: "flex flex-wrap items-baseline gap-2", body: "my-1 whitespace-pre-wrap [overflow-wrap:anywhere]" } as const;
/** Two columns that fold into one on narrow screens. */
export const twoCol = "grid grid-cols-[repeat(auto-fit,minmax(320px,1fr))] items-start gap-4 [&>*]:min-w-0";

/** Links side by side as one control (a period, a view); `segment(active)` for each link. */
export const segmented = "inline-flex shrink-0 overflow-hidden rounded-md border border-border";
export const segment = (active: boolean) => cx("px-2.5 py-1 text-[13px] text-fg no-underline [&+&]:border-l [&+&]:border-border", active && "bg-surface-2 font-[650]");

/** Tabs that are links (a queue's views); `tab(active)` for each. */
export const tabs = "flex flex-wrap gap-0.5 border-b border-border";
export const tab = (active: boolean) => cx("inline-flex items-center gap-1.5 border-b-2 px-3 py-1.5 text-[13.5px] text-fg no-underline", active ? "border-accent font-[650]" : "border-transparent");

/** Label / value pairs in a row (`<dl>` of `<div><dt/><dd/></div>`). */
export const facts = "m-0 flex flex-wrap gap-x-7 gap-y-2 [&>div]:grid [&>div]:min-w-[90px] [&>div]:gap-0.5 [&_dd]:m-0 [&_dt]:text-[11.5px] [&_dt]:uppercase [&_dt]:tracking-wide [&_dt]:text-muted";

/**
 * A plain table (a chart's numbers, an API's parameters) inside `ui.tableWrap`: a quiet head row and rules
 * between rows; `sm` for small print. Numbers: `text-right tabular-nums` on their cells. Lists use DataTable.
 */
export const tableWrap = "overflow-x-auto rounded-md border border-border bg-surface shadow-card";
const TABLE =
  "w-full border-collapse [&_:is(th,td)]:border-b [&_:is(th,td)]:border-border [&_:is(th,td)]:px-3 [&_:is(th,td)]:py-[7px] [&_:is(th,td)]:align-middle max-[1280px]:[&_:is(th,td)]:px-[9px] max-[1280px]:[&_:is(th,td)]:py-1.5 max-[1101px]:[&_:is(th,td)]:px-[7px] [&_thead_th]:whitespace-nowrap [&_thead_th]:bg-surface-2 [&_thead_th]:text-[12px] [&_thead_th]:font-semibold [&_thead_th]:tracking-[0.03em] [&_thead_th]:text-muted [&_thead_th]:uppercase [&_tbody_tr:hover]:bg-surface-2 [&_tbody_tr:last-child>*]:border-b-0 [&_tbody_th]:min-w-[12em] [&_tbody_th]:font-semibold [&_td_time]:whitespace-nowrap";
export const table = (size?: "sm") => cx(TABLE, size === "sm" ? "text-sm" : "text-[13.5px] max-[1101px]:text-[13px]");
/** A DataTable of long cells (proposals: their actions and reasons): code and muted notes wrap instead of widening it. */
export const wrappingTable = "[&_code]:[overflow-wrap:anywhere] [&_td_.text-muted]:whitespace-normal";

/** Metric tiles: a grid of cards, each a label, a big value and a line of context. */
export const metricGrid = "grid grid-cols-[repeat(auto-fill,minmax(200px,1fr))] gap-3";
export const metricCard = "rounded-md border border-border bg-surface px-3 py-2.5 [&_p]:mb-0 [&_p]:mt-1";
export const metricLabel = "text-sm font-semibold text-muted";
export const metricValue = "text-[26px] font-bold leading-tight";

/** Charts (components/charts/figure.tsx) side by side; the first one takes the whole width. Their numbers: `ui.table("sm")`. */
export const chartGrid = "mb-3 grid grid-cols-[repeat(auto-fit,minmax(340px,1fr))] gap-3 [&>:first-child]:col-span-full";

/** A small rounded label (a role, a tag). */
export const chip = "rounded-full border border-border bg-surface-2 px-1.5 py-px text-[11.5px]";
/** A library tag (an entry's context tags): a small pill that stays on one line. */
export const tag = "inline-block whitespace-nowrap rounded-full border border-border bg-surface-2 px-[7px] text-[11.5px] text-fg";
/** A count in a pill (open gates, queue sizes); `active` when it asks for attention. */
export const countPill = (active = false) => cx("inline-block min-w-[22px] rounded-full px-1.5 text-center text-xs font-semibold no-underline", active ? "bg-paused-bg text-paused shadow-[inset_0_0_0_1px_var(--paused)]" : "bg-neutral-bg text-muted");

/** Text cut to two lines (a long summary in a table cell). */
export const clamp2 = "line-clamp-2 max-w-[60ch] whitespace-normal";

/** The pages outside the console (sign-in, invitation link, not found): one card in the middle of the page. */
export const standalone = { page: "grid min-h-screen place-items-center p-6", card: cx(card, "grid w-[min(420px,100%)] gap-3.5 p-6"), top: "flex items-center justify-between" } as const;
