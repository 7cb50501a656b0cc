import { FixtureError } from "@purse/engine";
import { ConfigError } from "../config/config.ts";
import { printError, setJsonOutput } from "./print-result.ts";
import { createPurseProgram } from "./purse-program.ts";

setJsonOutput(process.argv.includes("--json"));
const program = createPurseProgram();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = 1;
  if (error instanceof ConfigError) {
    // One line per bad variable, each naming it (contract: "one clear line naming the variable").
    printError(error.lines.map((line) => `purse: cannot start: ${line}`).join("\n"));
  } else if (error instanceof FixtureError) {
    printError(error.message);
  } else {
    printError(`purse: ${error instanceof Error ? error.message : String(error)}`);
  }
}
