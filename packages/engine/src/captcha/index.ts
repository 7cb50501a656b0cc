export * from "./captcha.ts";
export * from "./spent-captchas.ts";
