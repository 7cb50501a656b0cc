import { readFile } from "node:fs/promises";
import { openSecretBox, seedFixture } from "@purse/engine";
import type { Command } from "commander";
import { describeLocation } from "../../composition/open-database.ts";
import { readConfig } from "../../config/config.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

export function registerSeed(program: Command): void {
  program
    .command("seed")
    .argument("<file>", "a JSON fixture in the contract's format (see fixtures/demo.json)")
    .description("load a fixture in one transaction: all records or, if any is invalid or exists, none")
    .action((file: string) =>
      withDatabase(async (db) => {
        const fixture = await readJson(file);
        const summary = await seedFixture(db, await openSecretBox(db, readConfig().secretKey), fixture);
        const counts = Object.entries(summary)
          .map(([section, count]) => `${count} ${section}`)
          .join(", ");
        printResult(summary, `Seeded ${describeLocation(db)} from ${file}: ${counts}.`);
      }),
    );
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}
