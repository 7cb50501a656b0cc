import { PurseError } from "../errors/index.ts";

/** What a movement's call ended in, as its tests compare it: "ok", or its refusal's code. */
export async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (PurseError.is(error)) return error.code;
    throw error;
  }
}
