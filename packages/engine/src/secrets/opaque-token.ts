import { randomBytes } from "node:crypto";
import { sha256Hex } from "./sha256-hex.ts";

const prefixPattern = /^[a-z]{1,16}$/;

/**
 * An unguessable bearer value (access tokens `pat_…`, checkout links `chk_…`): 256 random bits in
 * base64url behind a readable prefix, so a leaked token says what it is (and secret scanners can
 * spot it).
 */
export function generateOpaqueToken(prefix = "pat"): string {
  if (!prefixPattern.test(prefix))
    throw new RangeError(`token prefix must be 1-16 lowercase letters: ${prefix}`);
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/**
 * What is stored and looked up instead of the token: SHA-256 hex. A fast hash is right here (unlike
 * passwords): the token has 256 random bits, so there is nothing to brute-force, and a lookup stays
 * one indexed query.
 */
export function hashOpaqueToken(token: string): string {
  return sha256Hex(token);
}
