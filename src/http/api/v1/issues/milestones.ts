import type { AnyOperation } from "../../../route.ts";

export const milestoneOperations: AnyOperation[] = [];
