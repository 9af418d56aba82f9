import type { AnyOperation } from "../../../route.ts";

export const releaseAttachmentOperations: AnyOperation[] = [];
