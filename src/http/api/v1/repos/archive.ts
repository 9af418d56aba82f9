import type { AnyOperation } from "../../../route.ts";

export const archiveOperations: AnyOperation[] = [];
