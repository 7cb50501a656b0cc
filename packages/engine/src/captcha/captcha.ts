import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

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

export function altchaCaptcha(hmacSecret: string): Captcha {
  // Solved challenges, until they expire: a payload cannot be replayed.
  const used = new Map<string, number>();
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
      if (!payload) return false;
      let decoded: { challenge?: unknown; solution?: unknown };
      try {
        decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
      } catch {
        return false;
      }
      if (!decoded.challenge || !decoded.solution) return false;
      const key = JSON.stringify(decoded.challenge);
      const now = Date.now();
      for (const [seen, expires] of used) if (expires < now) used.delete(seen);
      if (used.has(key)) return false;
      const result = await verifySolution({
        challenge: decoded.challenge as Parameters<typeof verifySolution>[0]["challenge"],
        solution: decoded.solution as Parameters<typeof verifySolution>[0]["solution"],
        deriveKey,
        hmacSignatureSecret: hmacSecret,
      }).catch(() => ({ verified: false }));
      if (result.verified) used.set(key, now + challengeLifetimeMs);
      return result.verified;
    },
  };
}
