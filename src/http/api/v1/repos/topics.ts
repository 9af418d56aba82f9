import type { AnyOperation } from "../../../route.ts";

export const topicOperations: AnyOperation[] = [];
