import type { AnyOperation } from "../../../route.ts";

export const releaseOperations: AnyOperation[] = [];
