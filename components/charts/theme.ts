/**
 * What every Recharts chart of the console shares: series colours from CSS variables (so light and dark
 * themes both read), quiet axes and grid, and a tooltip on the console's surface colours.
 */
export const SERIES_COUNT = 7;
export const seriesColour = (i: number) => `var(--hc-${i % SERIES_COUNT})`;

export const AXIS = { tick: { fontSize: 11, fill: "var(--text-muted)" }, stroke: "var(--border-strong)", tickLine: false } as const;
export const GRID = { stroke: "var(--border)", strokeDasharray: "3 3", vertical: false } as const;
export const TOOLTIP = {
  contentStyle: { background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 6, fontSize: 12, color: "var(--text)" },
  labelStyle: { color: "var(--text)", fontWeight: 600 },
  cursor: { fill: "var(--surface-2)" },
} as const;
