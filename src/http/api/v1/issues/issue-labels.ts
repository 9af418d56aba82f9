import type { AnyOperation } from "../../../route.ts";

export const issueLabelOperations: AnyOperation[] = [];
