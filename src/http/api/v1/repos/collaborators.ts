import type { AnyOperation } from "../../../route.ts";

export const collaboratorOperations: AnyOperation[] = [];
