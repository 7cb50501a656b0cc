import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactJson, JsonNumberText, phpJsonEncode, pythonJsonDumps } from "./json-forms.ts";

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

describe("pythonJsonDumps", () => {
  // Each expected text is what Python 3's json.dumps printed for the same value.
  it.each<[string, string, string]>([
    ["a slash, left as is", "a/b", '"a/b"'],
    ["a Latin-1 letter", "é", '"\\u00e9"'],
    ["an astral character, as a surrogate pair", "😀", '"\\ud83d\\ude00"'],
    ["the line separator", "\u2028", '"\\u2028"'],
    ["DEL, which Python escapes", "\u007f", '"\\u007f"'],
    ["control characters", "\n\u0001", '"\\n\\u0001"'],
  ])("escapes %s as Python does", (_case, value, expected) => {
    expect(pythonJsonDumps(value)).toBe(expected);
  });

  it("separates with a space after commas and colons, outside strings only", () => {
    expect(pythonJsonDumps({ a: "x, y: z", b: [new JsonNumberText("10.5"), true, null] })).toBe(
      '{"a": "x, y: z", "b": [10.5, true, null]}',
    );
  });

  it("is pure ASCII and reads back as the same value for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const encoded = pythonJsonDumps({ id: text });
        expect(/^[\x20-\x7e]*$/.test(encoded)).toBe(true);
        expect(JSON.parse(encoded)).toEqual({ id: text });
      }),
    );
  });
});

describe("JsonNumberText", () => {
  it("writes the number's text as given and refuses what is not a JSON number", () => {
    expect(phpJsonEncode({ amount: new JsonNumberText("10.0") })).toBe('{"amount":10.0}');
    for (const bad of ["10.", ".5", "01", "1,5", "NaN", ""]) {
      expect(() => new JsonNumberText(bad)).toThrow(RangeError);
    }
  });
});
