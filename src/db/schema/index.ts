export * from "./user.ts";
export * from "./auth.ts";
export * from "./repo.ts";
export * from "./org.ts";
export * from "./issue.ts";
export * from "./pull.ts";
export * from "./protected-tag.ts";
export * from "./webhook.ts";
