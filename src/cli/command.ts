import { parseArgs } from "node:util";

/**
 * A tiny command tree with Gitea's command names: each level prints its own `--help`, unknown
 * commands and flags fail with a one-line reason and a non-zero exit.
 */
export interface Flag {
  name: string;
  /** `bool` accepts `--x`, `--x=true` and `--x=false` (Gitea's urfave/cli booleans). */
  type: "string" | "bool";
  description: string;
  required?: boolean;
  default?: string | boolean;
  short?: string;
}

export interface Command {
  name: string;
  description: string;
  flags?: Flag[];
  subcommands?: Command[];
  run?(flags: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number | void>;
}

export class UsageError extends Error {}

export function helpText(cmd: Command, path: string[]): string {
  const lines = [`${path.join(" ")} - ${cmd.description}`, ""];
  if (cmd.subcommands?.length) {
    lines.push(`Usage: ${path.join(" ")} <command> [flags]`, "", "Commands:");
    for (const s of cmd.subcommands) lines.push(`  ${s.name.padEnd(26)} ${s.description}`);
  } else {
    lines.push(`Usage: ${path.join(" ")} [flags]`);
  }
  const flags = [...(cmd.flags ?? []), { name: "help", type: "bool", description: "show help" } as Flag];
  lines.push("", "Flags:");
  for (const f of flags) {
    const spec = `--${f.name}${f.type === "string" ? " value" : ""}`;
    const def = f.default !== undefined ? ` (default: ${f.default})` : "";
    lines.push(`  ${spec.padEnd(30)} ${f.description}${f.required ? " (required)" : ""}${def}`);
  }
  return lines.join("\n") + "\n";
}

function parseBool(flag: string, value: string | boolean): boolean {
  if (typeof value === "boolean") return value;
  const v = value.toLowerCase();
  if (["1", "t", "true", "yes"].includes(v)) return true;
  if (["0", "f", "false", "no"].includes(v)) return false;
  throw new UsageError(`invalid value ${JSON.stringify(value)} for --${flag}: expected true or false`);
}

export async function dispatch(root: Command, argv: string[], out = process.stdout): Promise<number> {
  let cmd = root;
  const path = [root.name];
  let rest = argv;
  while (cmd.subcommands?.length && rest.length && !rest[0]!.startsWith("-")) {
    const next = cmd.subcommands.find((s) => s.name === rest[0]);
    if (!next) throw new UsageError(`unknown command "${rest[0]}" for "${path.join(" ")}"`);
    cmd = next;
    path.push(next.name);
    rest = rest.slice(1);
  }
  if (rest.includes("--help") || rest.includes("-h") || (!cmd.run && cmd.subcommands?.length)) {
    out.write(helpText(cmd, path));
    return rest.includes("--help") || rest.includes("-h") ? 0 : 1;
  }
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const f of cmd.flags ?? []) options[f.name] = f.short ? { type: "string", short: f.short } : { type: "string" };
  // Bare boolean flags (`--admin`) become `--admin=true` so one string parser serves both forms.
  const bools = new Set((cmd.flags ?? []).filter((f) => f.type === "bool").map((f) => f.name));
  const normalized = rest.map((a) => (a.startsWith("--") && bools.has(a.slice(2)) ? `${a}=true` : a));
  let parsed;
  try {
    parsed = parseArgs({ args: normalized, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split("\n")[0]!);
  }
  const flags: Record<string, string | boolean | undefined> = {};
  for (const f of cmd.flags ?? []) {
    const raw = parsed.values[f.name] as string | undefined;
    let value: string | boolean | undefined = raw ?? f.default;
    if (f.type === "bool" && value !== undefined) value = parseBool(f.name, value);
    if (f.required && (value === undefined || value === "")) throw new UsageError(`flag --${f.name} is required`);
    flags[f.name] = value;
  }
  return (await cmd.run!(flags, parsed.positionals)) ?? 0;
}
