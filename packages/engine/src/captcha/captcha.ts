import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { MemorySpentCaptchas, type SpentCaptchas } from "./spent-captchas.ts";

/**
 * The payment page's captcha: ALTCHA proof-of-work, self-hosted (no third party, no puzzle for
 * the payer to read). `PURSE_CAPTCHA=off` swaps in a captcha that accepts everything, for
 * automated tests only.
 */
export interface Captcha {
  readonly enabled: boolean;
  /** A signed challenge for the widget. */
  challenge(): Promise<unknown>;
  /** Checks the widget's base64 payload; a solved challenge is accepted once. */
  verify(payload: string | null | undefined): Promise<boolean>;
}

export const disabledCaptcha: Captcha = {
  enabled: false,
  challenge: async () => ({}),
  verify: async () => true,
};

const challengeLifetimeMs = 10 * 60 * 1000;

type AltchaChallenge = Parameters<typeof verifySolution>[0]["challenge"];
type AltchaSolution = Parameters<typeof verifySolution>[0]["solution"];

/**
 * `spent` remembers used solutions by the challenge's signature: the HMAC over the canonical
 * parameters, so reordering the payload's keys or re-encoding it does not make a new solution.
 */
export function altchaCaptcha(hmacSecret: string, spent: SpentCaptchas = new MemorySpentCaptchas()): Captcha {
  return {
    enabled: true,
    challenge: () =>
      createChallenge({
        algorithm: "SHA-256",
        cost: 1,
        counter: randomInt(5_000, 40_000),
        deriveKey,
        hmacSignatureSecret: hmacSecret,
        expiresAt: new Date(Date.now() + challengeLifetimeMs),
      }),
    async verify(payload) {
      const decoded = decodePayload(payload);
      if (!decoded) return false;
      const { challenge, solution } = decoded;
      const result = await verifySolution({
        challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: hmacSecret,
      }).catch(() => ({ verified: false }));
      if (!result.verified || typeof challenge.signature !== "string") return false;
      return spent.claim(`captcha:${challenge.signature.toLowerCase()}`, remainingLifetimeMs(challenge));
    },
  };
}

function decodePayload(
  payload: string | null | undefined,
): { challenge: AltchaChallenge; solution: AltchaSolution } | null {
  if (!payload) return null;
  try {
    const decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as {
      challenge?: AltchaChallenge;
      solution?: AltchaSolution;
    };
    if (!decoded.challenge?.parameters || !decoded.solution) return null;
    return { challenge: decoded.challenge, solution: decoded.solution };
  } catch {
    return null;
  }
}

/** Until the signed expiry (seconds since the epoch); a verified challenge has not expired yet. */
function remainingLifetimeMs(challenge: AltchaChallenge): number {
  const expiresAt = challenge.parameters.expiresAt;
  const remaining = typeof expiresAt === "number" ? expiresAt * 1000 - Date.now() : challengeLifetimeMs;
  return Math.max(1_000, Math.ceil(remaining));
}
