import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex, sha256HexEqual } from "./sha256-hex.ts";

// FIPS 180-2 test vectors.
const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("sha256Hex", () => {
  it("matches the standard's vectors, in lowercase hex", () => {
    expect(sha256Hex("abc")).toBe(abc);
    expect(sha256Hex("")).toBe(empty);
  });

  it("hashes the UTF-8 bytes of the text", () => {
    const ofBytes = (bytes: number[]) => createHash("sha256").update(Buffer.from(bytes)).digest("hex");
    // "é" is c3 a9 in UTF-8, not the single Latin-1 byte e9
    expect(sha256Hex("é")).toBe(ofBytes([0xc3, 0xa9]));
    expect(sha256Hex("é")).not.toBe(ofBytes([0xe9]));
  });
});

describe("sha256HexEqual", () => {
  it("accepts the same digest in either case and with stray surrounding whitespace", () => {
    expect(sha256HexEqual(abc, abc)).toBe(true);
    expect(sha256HexEqual(abc, abc.toUpperCase())).toBe(true);
    expect(sha256HexEqual(abc, ` ${abc}\n`)).toBe(true);
  });

  it("refuses a digest one hex digit away", () => {
    expect(sha256HexEqual(abc, `${abc.slice(0, -1)}c`)).toBe(false);
    expect(sha256HexEqual(abc, `0${abc.slice(1)}`)).toBe(false);
    expect(sha256HexEqual(abc, empty)).toBe(false);
  });

  it.each<[string, unknown]>([
    ["truncated", abc.slice(0, 63)],
    ["one digit too long", `${abc}0`],
    ["a prefix of it", abc.slice(0, 32)],
    ["non-hex of the right length", "g".repeat(64)],
    ["non-ASCII of the right length", "é".repeat(64)],
    ["empty", ""],
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["an object", { toString: () => abc }],
    ["base64 of the same bytes", Buffer.from(abc, "hex").toString("base64")],
  ])("answers false, without throwing, for %s", (_case, given) => {
    expect(sha256HexEqual(abc, given)).toBe(false);
  });

  it("answers false when our own side is malformed rather than comparing garbage", () => {
    expect(sha256HexEqual("not a digest", "not a digest")).toBe(false);
  });
});
