import { describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { parseInstant, statementBound } from "./instant.ts";

describe("dates and instants a client sends", () => {
  it.each([
    ["2026-11-26", "2026-11-26T00:00:00.000Z", true],
    ["2024-02-29", "2024-02-29T00:00:00.000Z", true],
    ["2026-11-26T10:05", "2026-11-26T10:05:00.000Z", false],
    ["2026-11-26T10:05:07Z", "2026-11-26T10:05:07.000Z", false],
    ["2026-11-26T10:05:07.123456Z", "2026-11-26T10:05:07.123Z", false],
    ["2026-11-26T10:05:07+02:00", "2026-11-26T08:05:07.000Z", false],
  ])("reads %s as %s", (text, iso, dateOnly) => {
    const { date, dateOnly: isDay } = parseInstant(text, "from");
    expect(date.toISOString()).toBe(iso);
    expect(isDay).toBe(dateOnly);
  });

  it.each([
    ["a day February does not have", "2020-02-30"],
    ["a 13th month", "2026-13-01"],
    ["hour 24", "2026-11-26T24:00:00Z"],
    ["a bare number", "1"],
    ["words", "March 7, 2020"],
    ["a year PostgreSQL cannot store", "-004714-01-01T00:00:00Z"],
    ["a six-digit year", "+275760-09-13T00:00:00Z"],
    ["a space for the T", "2026-11-26 10:00:00"],
  ])("refuses %s (%s): This value is not a valid date.", (_case, text) => {
    const attempt = () => parseInstant(text, "until");
    expect(attempt).toThrow(PurseError);
    expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_DATE", field: "until" }));
  });

  it("ends a statement's day at the next day's start, and leaves an instant as it is", () => {
    expect(statementBound("2026-11-26", "to", true).toISOString()).toBe("2026-11-27T00:00:00.000Z");
    expect(statementBound("2026-11-26", "from", false).toISOString()).toBe("2026-11-26T00:00:00.000Z");
    expect(statementBound("2026-11-26T10:00:00Z", "to", true).toISOString()).toBe("2026-11-26T10:00:00.000Z");
  });
});
