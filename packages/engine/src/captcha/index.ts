export * from "./captcha.ts";
