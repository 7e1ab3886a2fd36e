/**
 * Reads a domain renderer's board snapshot back into rows of cells, so the console draws the very text the
 * terminal prints (one renderer, lib/lab/domains) as a table: a first line of column numbers, then one line
 * a row — its number, then one character a cell, space separated — then any caption lines. Text in any other
 * shape is not a board (null): the console shows it as text.
 */
export interface BoardText {
  columns: string[];
  rows: Array<{ label: string; cells: string[] }>;
  caption: string[];
}

export function parseBoardText(text: string): BoardText | null {
  const lines = text.split("\n");
  const columns = lines[0]?.trim().split(/\s+/) ?? [];
  if (columns.length === 0 || !columns.every((c) => /^\d+$/.test(c))) return null;
  const rows: BoardText["rows"] = [];
  let i = 1;
  for (; i < lines.length; i++) {
    const m = /^\s*(\d+) (\S(?: \S)*)$/.exec(lines[i]);
    if (!m) break;
    const cells = m[2].split(" ");
    if (cells.length !== columns.length) return null;
    rows.push({ label: m[1], cells });
  }
  if (rows.length === 0) return null;
  return { columns, rows, caption: lines.slice(i).map((l) => l.trim()).filter(Boolean) };
}
