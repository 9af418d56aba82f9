import type { AnyOperation } from "../../../route.ts";

export const pullReviewOperations: AnyOperation[] = [];
