import { showProfile, type UserProfileView } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { showProfileResponses, type UserProfile } from "./show-profile.schemas.ts";

/** GET /api/user/me: the profile of the token's user, never anyone else's. */
export const registerShowProfile: RegisterRoute = (app, deps) => {
  app.get(
    "/api/user/me",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "showProfile",
        tags: ["Users"],
        summary: "The caller's profile",
        security: bearerSecurity,
        response: showProfileResponses,
      },
    },
    async (request) => ok(profileBody(await showProfile(deps, actorOf(request)))),
  );
};

function profileBody(view: UserProfileView): UserProfile {
  return {
    id: view.id,
    email: view.email,
    fullname: view.fullname,
    date_created: view.dateCreated,
    country: view.country,
    city: view.city,
    address: view.address,
    zipcode: view.zipcode,
    phone: view.phone,
    lastlogin: view.lastlogin,
    lastip: view.lastip,
    withdraw_commission: view.withdrawCommission,
    processing_commission: view.processingCommission,
    document_uploaded: view.documentUploaded,
    document_verify: view.documentVerify,
    is_excharger: view.isExcharger,
    codephrase: view.codephrase,
  };
}
