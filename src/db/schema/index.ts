export * from "./user.ts";
export * from "./auth.ts";
