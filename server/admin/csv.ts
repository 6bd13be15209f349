/**
 * CSV as spreadsheets write it (RFC 4180): comma or semicolon separated (Italian Excel uses ";"),
 * fields in double quotes may hold separators, quotes ("") and line breaks. Pure.
 */
export type CsvTable = { header: string[]; rows: { line: number; cells: string[] }[] };

/** The separator of the header line: ";" when it has more of them than commas. */
function detectSeparator(text: string): "," | ";" {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
}

/**
 * Parses the whole text; `line` is the file line where each record starts (the header is line 1),
 * so messages point where a person looks in a spreadsheet. Stops after `maxRows` + 1 records
 * (the caller refuses the file) so a huge file costs no more than the limit.
 */
export function parseCsv(input: string, maxRows = Number.POSITIVE_INFINITY): CsvTable & { truncated: boolean } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const separator = detectSeparator(text);
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let truncated = false;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === "")) records.push({ line: recordLine, cells });
    cells = [];
    cell = "";
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (char === "\n") line++;
        cell += char;
      }
      i++;
      continue;
    }
    if (char === '"' && cell === "") quoted = true;
    else if (char === separator) {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
      if (records.length > maxRows + 1) {
        truncated = true;
        break;
      }
    } else cell += char;
    i++;
  }
  if (!truncated && (cell !== "" || cells.length > 0)) endRecord();
  const [header, ...rows] = records;
  return { header: (header?.cells ?? []).map((name) => name.trim()), rows, truncated };
}

function quote(value: string): string {
  // A leading = + - @ would run as a formula in a spreadsheet: prefix it with an apostrophe.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => row.map(quote).join(",")).join("\r\n") + "\r\n";
}
