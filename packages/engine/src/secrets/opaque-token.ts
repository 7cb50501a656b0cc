import { randomBytes } from "node:crypto";
import { sha256Hex } from "./sha256-hex.ts";

const prefixPattern = /^[a-z]{1,16}$/;

/** The random part's length: 32 bytes in base64url, unpadded. */
const randomLength = 43;

/** An owner's id in front of the random part (`pat_12_…`), as the end of a token. */
const ownedEnd = new RegExp(`_([1-9][0-9]{0,14})_[A-Za-z0-9_-]{${randomLength}}$`);

/**
 * An unguessable bearer value (access tokens `pat_…`, checkout links `chk_…`): 256 random bits in
 * base64url behind a readable prefix, so a leaked token says what it is (and secret scanners can
 * spot it). With `ownerId`, the id of the user whose row the token finds stands between them
 * (`pat_12_…`): on Citus the lookup then names its owner and reads one shard
 * (docs/sharding.md). The id is no secret and grants nothing: the stored hash covers it, so a token
 * whose id was changed is a token nobody issued.
 */
export function generateOpaqueToken(prefix = "pat", ownerId?: number): string {
  if (!prefixPattern.test(prefix))
    throw new RangeError(`token prefix must be 1-16 lowercase letters: ${prefix}`);
  if (ownerId !== undefined && !(Number.isSafeInteger(ownerId) && ownerId > 0))
    throw new RangeError(`a token's owner must be a user id: ${ownerId}`);
  const owner = ownerId === undefined ? "" : `${ownerId}_`;
  return `${prefix}_${owner}${randomBytes(32).toString("base64url")}`;
}

/**
 * The owner's id a token carries (generateOpaqueToken), or undefined for one issued before tokens
 * carried it (its random part follows its prefix at once), or for anything else.
 */
export function opaqueTokenOwner(token: string): number | undefined {
  const owner = ownedEnd.exec(token)?.[1];
  return owner === undefined ? undefined : Number(owner);
}

/**
 * What is stored and looked up instead of the token: SHA-256 hex. A fast hash is right here (unlike
 * passwords): the token has 256 random bits, so there is nothing to brute-force, and a lookup stays
 * one indexed query.
 */
export function hashOpaqueToken(token: string): string {
  return sha256Hex(token);
}
