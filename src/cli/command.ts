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
  /** Usage of the positional arguments the command takes (`SECRET_KEY|INTERNAL_TOKEN`); none when unset. */
  args?: string;
  run?(flags: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number | void>;
}

export class UsageError extends Error {}

export function helpText(cmd: Command, path: string[]): string {
  const lines = [`${path.join(" ")} - ${cmd.description}`, ""];
  if (cmd.subcommands?.length) {
    lines.push(`Usage: ${path.join(" ")} <command> [flags]`, "", "Commands:");
    for (const s of cmd.subcommands) lines.push(`  ${s.name.padEnd(26)} ${s.description}`);
  } else {
    lines.push(`Usage: ${path.join(" ")} [flags]${cmd.args ? ` ${cmd.args}` : ""}`);
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

export async function dispatch(
  root: Command,
  argv: string[],
  out: { write(s: string): unknown } = process.stdout,
  err: { write(s: string): unknown } = process.stderr,
): Promise<number> {
  let cmd = root;
  const path = [root.name];
  let rest = argv;
  while (cmd.subcommands?.length && rest.length && !rest[0]!.startsWith("-")) {
    // `hearth help admin user` is `hearth admin user --help`, as urfave/cli's help command.
    if (rest[0] === "help") {
      rest = [...rest.slice(1), "--help"];
      continue;
    }
    const next = cmd.subcommands.find((s) => s.name === rest[0]);
    if (!next) throw new UsageError(`unknown command "${rest[0]}" for "${path.join(" ")}"`);
    cmd = next;
    path.push(next.name);
    rest = rest.slice(1);
  }
  const wantsHelp = rest.includes("--help") || rest.includes("-h");
  if (wantsHelp) {
    out.write(helpText(cmd, path));
    return 0;
  }
  if (!cmd.run) {
    // A command group without a subcommand: the help, as the error it is.
    err.write(helpText(cmd, path));
    return 1;
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
  if (!cmd.args && parsed.positionals.length) {
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])} for "${path.join(" ")}"`);
  }
  const flags: Record<string, string | boolean | undefined> = {};
  for (const f of cmd.flags ?? []) {
    const raw = parsed.values[f.name] as string | undefined;
    let value: string | boolean | undefined = raw ?? f.default;
    if (f.type === "bool" && value !== undefined) value = parseBool(f.name, value);
    if (f.required && (value === undefined || value === "")) throw new UsageError(`flag --${f.name} is required`);
    flags[f.name] = value;
  }
  return (await cmd.run(flags, parsed.positionals)) ?? 0;
}
