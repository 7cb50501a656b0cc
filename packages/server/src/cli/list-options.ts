import type { Command } from "commander";
import { parseCount } from "./parse-count.ts";
import { printResult } from "./print-result.ts";

/** `--limit` and `--after` of every `list` verb over users, wallets and clients. */
export interface ListOptions {
  limit: string;
  after?: string;
}

const maxLimit = 1_000;

export function withListOptions(command: Command, key: string): Command {
  return command
    .option("--limit <n>", `how many to show, 1 to ${maxLimit}`, "50")
    .option("--after <key>", `only those after this ${key}: the next page`);
}

export function listFilter(options: ListOptions): { limit: number; after?: string } {
  return {
    limit: parseCount(options.limit, "--limit", 1, maxLimit),
    ...(options.after === undefined ? {} : { after: options.after }),
  };
}

/**
 * A page of a list: its items as one JSON array with --json, otherwise a line each, and a last
 * line saying how to see the next page when more follow.
 */
export function printPage<Item>(
  page: { items: Item[]; more: boolean },
  line: (item: Item) => string,
  key: (item: Item) => string,
  none: string,
): void {
  const last = page.items.at(-1);
  const lines = page.items.map(line);
  if (page.more && last !== undefined) lines.push(`More follow: repeat with --after ${shellWord(key(last))}`);
  printResult(page.items, lines.length === 0 ? none : lines);
}

/** The key as a shell reads it back: quoted when it holds anything but plain characters. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
