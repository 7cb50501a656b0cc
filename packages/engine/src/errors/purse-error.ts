import { type ErrorCode, type ErrorDefinition, errorCatalogue } from "./error-catalogue.ts";

export type ErrorParams = Readonly<Record<string, string | number>>;

/** What the engine knows of when the same call may succeed, where it knows it. */
export interface RetryHint {
  /** Whole seconds to wait, rounded up (a rate limit's window): REST's `Retry-After`. */
  readonly retryAfterSeconds: number;
}

/** The one error type the engine throws on purpose; anything else is a bug (500). */
export class PurseError extends Error {
  override readonly name = "PurseError";
  readonly definition: ErrorDefinition;

  constructor(
    readonly code: ErrorCode,
    /** The request field the failure belongs to, if any (becomes `errors.<field>`). */
    readonly field?: string,
    readonly params: ErrorParams = {},
    /** Set where the engine knows the wait (RATE_LIMITED: until the window frees a slot). */
    readonly retry?: RetryHint,
  ) {
    const definition: ErrorDefinition = errorCatalogue[code];
    super(fillTemplate(definition.message, params));
    this.definition = definition;
  }

  get status(): ErrorDefinition["status"] {
    return this.definition.status;
  }

  get translation(): string | undefined {
    return this.definition.translation;
  }

  static is(value: unknown, code?: ErrorCode): value is PurseError {
    return value instanceof PurseError && (code === undefined || value.code === code);
  }
}

export function fillTemplate(template: string, params: ErrorParams): string {
  return template.replace(/%(\w+)%/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
