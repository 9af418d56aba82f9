import type { AnyOperation } from "../../../route.ts";

export const orgLabelOperations: AnyOperation[] = [];
