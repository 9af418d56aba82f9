import type { AnyOperation } from "../../../route.ts";

export const issueTemplateOperations: AnyOperation[] = [];
