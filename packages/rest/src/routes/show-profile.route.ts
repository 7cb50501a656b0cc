import { profileShowOperation } from "@purse/engine";
import { z } from "zod";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

/** GET /api/user/me: the caller's profile under the names existing clients read (`date_created`, `is_excharger`). */
export const showProfileRoute = operationRoute(profileShowOperation, {
  method: "GET",
  url: "/api/user/me",
  operationId: "showProfile",
  tags: ["Users"],
  summary: "The caller's profile",
  answer: z.object(snakeCased(profileShowOperation.output.shape)).meta({ id: "UserProfile" }),
  input: () => undefined,
  output: snakeCasedValues,
  fields: {},
});
