import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { altchaCaptcha } from "./captcha.ts";
import { MemorySpentCaptchas } from "./spent-captchas.ts";

const secret = "captcha-test-secret-of-some-length";

async function solvedPayload(captcha: ReturnType<typeof altchaCaptcha>) {
  const challenge = (await captcha.challenge()) as Parameters<typeof solveChallenge>[0]["challenge"];
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, solution };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("altcha captcha (in process, the embedded default)", () => {
  it("accepts a solution once, also when its keys are sent in another order", async () => {
    const captcha = altchaCaptcha(secret);
    const { challenge, solution } = await solvedPayload(captcha);
    expect(await captcha.verify(encode({ challenge, solution }))).toBe(true);
    const { parameters, signature } = challenge;
    const shuffled = {
      solution,
      challenge: { signature, parameters: Object.fromEntries(Object.entries(parameters).reverse()) },
    };
    expect(await captcha.verify(encode(shuffled))).toBe(false);
    expect(await captcha.verify(encode({ challenge, solution }))).toBe(false);
  });

  it("refuses a forged signature and garbage", async () => {
    const captcha = altchaCaptcha(secret);
    const { challenge, solution } = await solvedPayload(captcha);
    expect(await captcha.verify(encode({ challenge: { ...challenge, signature: "00" }, solution }))).toBe(
      false,
    );
    expect(await captcha.verify("bm90LWEtcGF5bG9hZA==")).toBe(false);
    expect(await captcha.verify(null)).toBe(false);
  });
});

describe("in-process spent captchas", () => {
  it("claims once, forgets after the lifetime, and stays bounded", async () => {
    // Its clock is Date.now(): a fake Date moves past the lifetime and the once-a-second sweep
    // instead of waiting 1.1 s for them.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const spent = new MemorySpentCaptchas(3);
    expect(await spent.claim("a", 50)).toBe(true);
    expect(await spent.claim("a", 50)).toBe(false);
    vi.setSystemTime(Date.now() + 1_100);
    expect(await spent.claim("a", 50)).toBe(true);
    expect(await spent.claim("b", 60_000)).toBe(true);
    expect(await spent.claim("c", 60_000)).toBe(true);
    // Full of unexpired solutions: refuse a new one rather than forget one that could be replayed.
    expect(await spent.claim("d", 60_000)).toBe(false);
  });
});
