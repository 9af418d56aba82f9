import { BadRequest } from "../../lib/errors.ts";
import { truncateDescription } from "../secrets/validation.ts";

/** Gitea's VariableDataMaxLength: characters (runes, utf8.RuneCountInString), unlike a secret's bytes. */
export const VARIABLE_DATA_MAX_LENGTH = 65536;

/** Gitea's util.ReserveLineBreakForTextarea: CRLF becomes LF, everything else is kept as sent. */
export function normalizeVariableData(data: string): string {
  return data.replaceAll("\r\n", "\n");
}

/** Gitea's InsertVariable / UpdateVariableCols limit, an invalid-argument error (400). */
export function checkVariableData(data: string): void {
  let runes = 0;
  for (const _ of data) if (++runes > VARIABLE_DATA_MAX_LENGTH) throw new BadRequest("data too long");
}

/** Gitea's VariableDescriptionMaxLength is 4096 runes, as a secret's: a longer description is cut, not refused. */
export const truncateVariableDescription = truncateDescription;
