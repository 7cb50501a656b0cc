import { checkoutContract, checkoutLinkContract, createCheckout, PurseError } from "@purse/engine";
import { builder } from "../builder.ts";
import { contractInputType } from "./contract-input.ts";
import { contractObjectType } from "./contract-object.ts";

const CheckoutLink = contractObjectType("CheckoutLink", checkoutLinkContract);

const CheckoutInput = contractInputType("CheckoutInput", checkoutContract);

const domainErrors = { types: [PurseError] };

builder.mutationFields((t) => ({
  createCheckout: t.field({
    type: CheckoutLink,
    errors: domainErrors,
    args: { input: t.arg({ type: CheckoutInput, required: true }) },
    // Authenticated by the signature, like REST: no token needed.
    resolve: (_root, { input }, ctx) =>
      createCheckout(ctx.deps, { ...input, clientAddress: ctx.clientAddress }),
  }),
}));
