import type { AnyOperation } from "../../../route.ts";

export const attachmentOperations: AnyOperation[] = [];
