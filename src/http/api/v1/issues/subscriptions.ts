import type { AnyOperation } from "../../../route.ts";

export const subscriptionOperations: AnyOperation[] = [];
