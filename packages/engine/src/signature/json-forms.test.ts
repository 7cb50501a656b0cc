import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactJson, phpJsonEncode } from "./json-forms.ts";

describe("compactJson", () => {
  it("keeps insertion order and writes no whitespace", () => {
    expect(compactJson({ b: "1", a: "2" })).toBe('{"b":"1","a":"2"}');
  });
  it("leaves slashes and non-ASCII characters as they are", () => {
    expect(compactJson({ id: "a/b-é€😀" })).toBe('{"id":"a/b-é€😀"}');
  });
});

describe("phpJsonEncode", () => {
  it.each<[string, string, string]>([
    ["a slash", "a/b", '"a\\/b"'],
    ["a Latin-1 letter", "é", '"\\u00e9"'],
    ["hex letters, in lowercase", "€", '"\\u20ac"'],
    ["an astral character, as a surrogate pair", "😀", '"\\ud83d\\ude00"'],
    ["the line separator", "\u2028", '"\\u2028"'],
    ["a quote and a backslash, like JSON.stringify", 'say "\\"', '"say \\"\\\\\\""'],
    ["control characters, like JSON.stringify", "\n\t\u0001\u001f", '"\\n\\t\\u0001\\u001f"'],
    ["DEL, which is ASCII and stays raw", "\u007f", '"\u007f"'],
    ["plain ASCII, unchanged", "U100000010 10.50", '"U100000010 10.50"'],
  ])("escapes %s as PHP does", (_case, value, expected) => {
    expect(phpJsonEncode(value)).toBe(expected);
  });

  it("keeps key order and compactness", () => {
    expect(phpJsonEncode({ wallet_to: "W/1", amount: "1.00" })).toBe('{"wallet_to":"W\\/1","amount":"1.00"}');
  });

  it("is pure ASCII and reads back as the same value for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const encoded = phpJsonEncode({ id: text });
        expect(/^[\x20-\x7f]*$/.test(encoded)).toBe(true);
        expect(JSON.parse(encoded)).toEqual({ id: text });
      }),
    );
  });

  it("differs from the JavaScript form only where PHP escapes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii" }), (text) => {
        expect(phpJsonEncode(text)).toBe(compactJson(text).replace(/\//g, "\\/"));
      }),
    );
  });
});
