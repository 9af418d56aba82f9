import type { AnyOperation } from "../../../route.ts";

export const timelineOperations: AnyOperation[] = [];
