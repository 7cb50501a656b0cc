export * from "./error-catalogue.ts";
export * from "./purse-error.ts";
