import { Option } from "commander";
import { printWarning } from "./print-result.ts";

/**
 * An old spelling kept working for the scripts that use it: hidden from --help, and a one-line
 * warning each time it is used (docs/versioning.md, "Deprecations").
 */
export function deprecatedOption(flags: string, instead: string): Option {
  return new Option(flags, `deprecated: use ${instead}`).hideHelp();
}

export function warnDeprecated(used: string, instead: string): void {
  printWarning(
    `purse: warning: ${used} is deprecated and will be removed in a later version; use ${instead}`,
  );
}
