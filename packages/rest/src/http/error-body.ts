import type { PurseError } from "@purse/engine";

/** Contract: `{"status": false, "message": ..., "errors": {field: [text]}, "translation": key}`. */
export interface ErrorBody {
  status: false;
  message: string;
  errors?: Record<string, string[]>;
  translation?: string;
}

export function errorBody(message: string, field?: string, translation?: string): ErrorBody {
  return {
    status: false,
    message,
    ...(field ? { errors: { [field]: [message] } } : {}),
    ...(translation ? { translation } : {}),
  };
}

/** The body for an engine error; token errors use RFC 6749's `{"error": code}` instead. */
export function purseErrorBody(error: PurseError): ErrorBody | { error: string } {
  if (error.definition.kind === "oauth") return { error: error.message };
  return errorBody(error.message, error.field, error.translation);
}
