import { readFileSync } from "node:fs";

/** The command-line options of a benchmark script: `--name`, `--name VALUE`. */
export function benchArgs(argv: string[]) {
  const given = (name: string) => argv.includes(`--${name}`);
  const value = (name: string) => argv[argv.indexOf(`--${name}`) + 1];
  const positive = (name: string, def: number, integer: boolean): number => {
    if (!given(name)) return def;
    const v = Number(value(name));
    if (!(integer ? Number.isInteger(v) : Number.isFinite(v)) || v <= 0) throw new Error(`--${name} needs a positive ${integer ? "integer" : "number"}`);
    return v;
  };
  return {
    /** Whether `--name` was given. */
    flag: given,
    /** `--name N`, a positive number, or `def`. */
    number: (name: string, def: number) => positive(name, def, false),
    /** `--name N`, a positive integer, or `def`. */
    integer: (name: string, def: number) => positive(name, def, true),
    /** `--name TEXT`, or `def`. */
    string: (name: string, def: string) => (given(name) ? String(value(name)) : def),
    /** With `--help` or `-h`: prints the script's header comment (its usage) and exits. */
    helpFrom(scriptPath: string): void {
      if (!given("help") && !argv.includes("-h")) return;
      console.log(readFileSync(scriptPath, "utf8").split("*/")[0]);
      process.exit(0);
    },
  };
}
