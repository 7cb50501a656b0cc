import { PurseError } from "../errors/index.ts";

/** Contract: "Redirect and notification URLs", at most this many characters. */
export const maxWebUrlLength = 2048;

export interface WebUrlRules {
  /** Under NODE_ENV=production only `https:` is accepted. */
  readonly requireHttps: boolean;
}

// Browsers strip leading/trailing C0 controls and spaces and remove tabs and newlines anywhere
// (`java\tscript:` runs as `javascript:`), so raw text carrying any of them is refused outright
// instead of being parsed the forgiving way a browser would.
function hasUnsafeCharacter(value: string): boolean {
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\p{White_Space}|\p{Cf}/u.test(character))
      return true;
  }
  return false;
}

/**
 * A redirect or notification URL (`success_url`, `cancel_url`, `status_url`): an absolute
 * http(s) URL without credentials, or nothing (empty means absent, as for every optional field).
 * The hosted page navigates the payer's browser to it, so anything a browser would run as script
 * (`javascript:`, `data:`, `vbscript:`), resolve against Purse's own origin (`//host`, `/path`)
 * or hide behind a user name (`https://bank.example@evil.example`) is refused here, for every door.
 */
export function optionalWebUrl(
  value: string | null | undefined,
  field: string,
  rules: WebUrlRules,
): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value.length > maxWebUrlLength || hasUnsafeCharacter(value)) {
    throw new PurseError("INVALID_URL", field);
  }
  // The WHATWG parser is the one browsers use: what it calls http(s) is what the browser opens.
  const parsed = URL.parse(value);
  if (!parsed || !isWebUrl(parsed, rules) || !startsWithScheme(value, parsed.protocol)) {
    throw new PurseError("INVALID_URL", field);
  }
  return value;
}

/** An absolute http(s) URL with a host and no credentials: safe to navigate a browser to. */
export function isWebUrl(url: URL, rules: WebUrlRules = { requireHttps: false }): boolean {
  const schemes = rules.requireHttps ? ["https:"] : ["http:", "https:"];
  return schemes.includes(url.protocol) && url.hostname !== "" && url.username === "" && url.password === "";
}

// The raw text must itself spell the scheme followed by `//` and then the host, so that what is
// stored is what was checked, with no reliance on the parser's repairs (`http:evil.example`,
// `http:\\evil.example`, `http:///evil.example`, which it reads as `http://evil.example/`).
function startsWithScheme(value: string, protocol: string): boolean {
  const prefix = `${protocol}//`;
  const afterSlashes = value.charAt(prefix.length);
  return value.toLowerCase().startsWith(prefix) && afterSlashes !== "/" && afterSlashes !== "\\";
}
