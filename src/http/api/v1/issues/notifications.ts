import type { AnyOperation } from "../../../route.ts";

export const notificationOperations: AnyOperation[] = [];
