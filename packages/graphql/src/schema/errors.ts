import { PurseError } from "@purse/engine";
import { refusedFieldName } from "@purse/http-kernel";
import { builder } from "../builder.ts";

/** Every failure a mutation can report: the spec's message, the stable code and the field. */
export const ErrorInterface = builder.interfaceRef<PurseError>("Error").implement({
  description: "A failure with the specification's message text",
  fields: (t) => ({
    message: t.exposeString("message"),
  }),
});

builder.objectType(PurseError, {
  name: "PurseError",
  description: "A rule was broken; `message` is the specification's text, `code` never changes",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    code: t.exposeString("code"),
    status: t.exposeInt("status", { description: "The HTTP status REST answers with" }),
    field: t.string({
      nullable: true,
      resolve: (error) => (error.field ? refusedFieldName(error.field) : null),
    }),
    translation: t.string({ nullable: true, resolve: (error) => error.translation ?? null }),
  }),
});
