import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { isWebUrl, maxWebUrlLength, optionalWebUrl } from "./web-url.ts";

const lenient = { requireHttps: false };
const production = { requireHttps: true };

function refusal(value: string, rules = lenient): string | undefined {
  try {
    optionalWebUrl(value, "success_url", rules);
    return undefined;
  } catch (error) {
    if (!PurseError.is(error)) throw error;
    return `${error.code} ${error.field} ${error.message}`;
  }
}

const longUrl = (length: number) => {
  const base = "https://shop.example/";
  return base + "a".repeat(length - base.length);
};

describe("redirect and notification URLs", () => {
  it.each([
    "https://shop.example/thanks?order=1#top",
    "http://shop.example/thanks",
    "http://127.0.0.1:8080/success",
    "https://xn--bcher-kva.example/",
    "HTTPS://Shop.Example/Thanks",
    longUrl(maxWebUrlLength),
  ])("keeps %s exactly as given", (value) => {
    expect(optionalWebUrl(value, "success_url", lenient)).toBe(value);
  });

  it.each([null, undefined, ""])("treats %s as absent", (value) => {
    expect(optionalWebUrl(value, "success_url", lenient)).toBeNull();
  });

  it.each([
    ["a script scheme", "javascript:alert(document.domain)"],
    ["a script scheme in mixed case", "JavaScript:alert(1)"],
    ["a script scheme after spaces", "  javascript:alert(1)"],
    ["a script scheme after a control character", "\u0001javascript:alert(1)"],
    ["a tab inside the scheme", "java\tscript:alert(1)"],
    ["a newline inside the scheme", "java\nscript:alert(1)"],
    ["a data URL", "data:text/html,<script>alert(1)</script>"],
    ["a vbscript URL", "vbscript:msgbox(1)"],
    ["a percent-encoded scheme", "%6Aavascript:alert(1)"],
    ["a scheme-relative URL", "//evil.example/steal"],
    ["a path on Purse's own origin", "/api/wallets"],
    ["a relative path", "thanks.html"],
    ["user name and password", "http://user:pass@shop.example/"],
    ["a user name only (a host in disguise)", "https://shop.example@evil.example/"],
    ["a trailing space", "https://shop.example/ "],
    ["a leading space", " https://shop.example/"],
    ["a non-breaking space", "\u00a0https://shop.example/"],
    ["a byte-order mark", "\ufeffhttps://shop.example/"],
    ["a NUL character", "https://shop.example/\u0000"],
    ["http without slashes", "http:evil.example"],
    ["backslashes for slashes", "https:\\\\evil.example"],
    ["three slashes (no host as written)", "http:///shop.example/ok"],
    ["a backslash after the slashes", "https://\\evil.example/"],
    ["an ftp URL", "ftp://shop.example/file"],
    ["a file URL", "file:///etc/passwd"],
    ["no host", "https://"],
    ["only spaces", "   "],
    ["2049 characters", longUrl(maxWebUrlLength + 1)],
  ])("refuses %s", (_name, value) => {
    expect(refusal(value)).toBe("INVALID_URL success_url This value is not a valid URL.");
  });

  it("accepts only https when production requires it", () => {
    expect(refusal("http://shop.example/thanks", production)).toBe(
      "INVALID_URL success_url This value is not a valid URL.",
    );
    expect(optionalWebUrl("https://shop.example/thanks", "success_url", production)).toBe(
      "https://shop.example/thanks",
    );
  });

  it("judges a parsed URL the same way for the page", () => {
    expect(isWebUrl(new URL("https://shop.example/"))).toBe(true);
    expect(isWebUrl(new URL("javascript:alert(1)"))).toBe(false);
    expect(isWebUrl(new URL("http://a:b@shop.example/"))).toBe(false);
    expect(isWebUrl(new URL("http://shop.example/"), production)).toBe(false);
  });
});
