/**
 * Every verb reports through here: a few lines for people, or with `--json` one JSON document on
 * stdout for scripts (errors then go to stderr as `{"error": "..."}`, with exit code 1).
 */
let jsonMode = false;

export function setJsonOutput(on: boolean): void {
  jsonMode = on;
}

export function isJsonOutput(): boolean {
  return jsonMode;
}

/** Prints `data` as JSON in --json mode, otherwise the text lines. */
export function printResult(data: unknown, text: string | readonly string[]): void {
  if (jsonMode) {
    console.log(
      JSON.stringify(data, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)),
    );
    return;
  }
  for (const line of typeof text === "string" ? [text] : text) console.log(line);
}

/**
 * A line of a long verb's progress: on stdout for people; with --json on stderr as
 * {"progress": ...}, so that stdout stays the one JSON document.
 */
export function printProgress(line: string): void {
  if (jsonMode) console.error(JSON.stringify({ progress: line.trim() }));
  else console.log(line);
}

/** A line on stderr that does not stop the command (with --json, as {"warning": ...}). */
export function printWarning(message: string): void {
  console.error(jsonMode ? JSON.stringify({ warning: message }) : message);
}

export function printError(message: string): void {
  console.error(jsonMode ? JSON.stringify({ error: message }) : message);
}
