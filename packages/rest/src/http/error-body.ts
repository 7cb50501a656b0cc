import type { CsrfRefusal, ErrorCode, PurseError } from "@purse/engine";
import type { RequestRefusalCode } from "@purse/http-kernel";

/**
 * What a program reads in `code`: the engine catalogue's code (the same GraphQL's `code` and
 * tRPC's `purseCode` carry), the session cookie's refusal (GraphQL's code for it), or the code of
 * a refusal of the request itself (tRPC's name for it).
 */
export type RestErrorCode = ErrorCode | CsrfRefusal | RequestRefusalCode;

/**
 * Contract: `{"status": false, "message": ..., "errors": {field: [text]}, "translation": key}`,
 * and beyond it `code`, machine-readable and stable where the specification's text is for people.
 */
export interface ErrorBody {
  status: false;
  message: string;
  errors?: Record<string, string[]>;
  translation?: string;
  code: RestErrorCode;
}

export function errorBody(
  code: RestErrorCode,
  message: string,
  field?: string,
  translation?: string,
): ErrorBody {
  return {
    status: false,
    message,
    ...(field ? { errors: { [field]: [message] } } : {}),
    ...(translation ? { translation } : {}),
    code,
  };
}

/** The body for an engine error; token errors use RFC 6749's `{"error": code}` instead. */
export function purseErrorBody(error: PurseError): ErrorBody | { error: string } {
  if (error.definition.kind === "oauth") return { error: error.message };
  return errorBody(error.code, error.message, error.field, error.translation);
}
