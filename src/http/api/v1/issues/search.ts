import type { AnyOperation } from "../../../route.ts";

export const issueSearchOperations: AnyOperation[] = [];
