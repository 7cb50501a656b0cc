import { parseCsv as parse } from "@purse/testing";
import { describe, expect, it } from "vitest";
import { csvLines, csvText } from "./csv.ts";

describe("CSV lines", () => {
  it("quotes a field holding a comma, a quote or a line break, and ends every line in CRLF", () => {
    const text = csvLines([
      ["a,b", 'say "hi"', "two\nlines", "plain"],
      ["1", "", "x\r\ny", "-12.50"],
    ]);
    expect(text).toBe('"a,b","say ""hi""","two\nlines",plain\r\n1,,"x\r\ny",-12.50\r\n');
    expect(parse(text)).toEqual([
      ["a,b", 'say "hi"', "two\nlines", "plain"],
      ["1", "", "x\r\ny", "-12.50"],
    ]);
  });

  it("keeps free text from running as a spreadsheet formula, whatever its first character", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvText(`${start}HYPERLINK("x")`)).toBe(`'${start}HYPERLINK("x")`);
    }
    expect(csvText("Order 42")).toBe("Order 42");
    expect(parse(csvLines([[csvText('=cmd|" /C calc"!A0')]]))).toEqual([[`'=cmd|" /C calc"!A0`]]);
  });
});
