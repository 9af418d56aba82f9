import type { Env } from "./env.ts";
import { ping } from "../models/health.ts";

export function pingDatabase(env: Env): boolean {
  try {
    return ping(env.db);
  } catch (err) {
    env.log.error("database ping failed", { error: (err as Error).message });
    return false;
  }
}
