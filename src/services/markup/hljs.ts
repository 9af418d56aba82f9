/**
 * highlight.js with the languages hearth highlights: its common set and a few more that
 * repositories are full of (Dockerfiles, CMake, protobuf, shell scripts for Windows...), each
 * registered from its own module so the executable carries these and not all 190 (WEB-NOTES:
 * +168 KB instead of +1.1 MB). Loaded only by modules that callers import when they render code.
 *
 * A language is always chosen by its name or the file's name, never guessed from the text.
 */
import hljs, { languages } from "./hljs-vendor.js";

for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

/** Whole file names that say their language (lower case). */
const BY_NAME = new Map<string, string>(Object.entries({
  makefile: "makefile",
  gnumakefile: "makefile",
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  "cmakelists.txt": "cmake",
  gemfile: "ruby",
  rakefile: "ruby",
  vagrantfile: "ruby",
  podfile: "ruby",
  brewfile: "ruby",
  jenkinsfile: "groovy",
  pkgbuild: "bash",
  ".bashrc": "bash",
  ".bash_profile": "bash",
  ".profile": "bash",
  ".zshrc": "bash",
  ".gitconfig": "ini",
  ".gitmodules": "ini",
  ".editorconfig": "ini",
  ".npmrc": "ini",
  pipfile: "ini",
  "cargo.lock": "ini",
  ".htaccess": "apache",
  "nginx.conf": "nginx",
  build: "python",
  "build.bazel": "python",
  workspace: "python",
}));

/** Extensions (lower case, without the dot) beyond the languages' own aliases, or instead of them. */
const BY_EXTENSION = new Map<string, string>(Object.entries({
  pyw: "python",
  pyi: "python",
  bzl: "python",
  rb: "ruby",
  rake: "ruby",
  gemspec: "ruby",
  rs: "rust",
  cs: "csharp",
  kt: "kotlin",
  kts: "kotlin",
  m: "objectivec",
  t: "perl",
  ksh: "bash",
  bash: "bash",
  psm1: "powershell",
  psd1: "powershell",
  htm: "xml",
  xslt: "xml",
  csproj: "xml",
  vue: "xml",
  markdown: "markdown",
  mdown: "markdown",
  livemd: "markdown",
  yml: "yaml",
  cfg: "ini",
  conf: "ini",
  patch: "diff",
  gql: "graphql",
  vb: "vbnet",
  wat: "wasm",
  wast: "wasm",
  proto: "protobuf",
  sc: "scala",
  hs: "haskell",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hrl: "erlang",
  clj: "clojure",
  cljs: "clojure",
  cljc: "clojure",
  edn: "clojure",
  gradle: "groovy",
  tex: "latex",
  sty: "latex",
  jl: "julia",
  ml: "ocaml",
  mli: "ocaml",
  fs: "fsharp",
  fsi: "fsharp",
  fsx: "fsharp",
  el: "lisp",
  ss: "scheme",
  rkt: "scheme",
  dockerfile: "dockerfile",
  cmake: "cmake",
  txt: "plaintext",
}));

/** Every registered language by its name and by each of its aliases. */
const canonical = new Map<string, string>();
for (const name of hljs.listLanguages()) {
  canonical.set(name, name);
  for (const alias of hljs.getLanguage(name)?.aliases ?? []) canonical.set(alias.toLowerCase(), name);
}

/** The registered language that a fence's info string or a language name names, by name or alias. */
export function languageByName(name: string): string | undefined {
  return canonical.get(name.toLowerCase());
}

/**
 * The language of a file from its name: a well-known name (`Makefile`, `Dockerfile.dev`), then
 * its extension (`.ts`, `.h`), or undefined to show it as plain text.
 */
export function languageForFile(fileName: string): string | undefined {
  const base = (fileName.split("/").pop() ?? "").toLowerCase();
  const named = BY_NAME.get(base);
  if (named) return named;
  if (base.startsWith("dockerfile.") || base.startsWith("containerfile.")) return "dockerfile";
  if (base.startsWith("makefile.")) return "makefile";
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return undefined;
  const ext = base.slice(dot + 1);
  return BY_EXTENSION.get(ext) ?? canonical.get(ext);
}

/** Code highlighted as `language` (a registered name): escaped text in highlight.js's `<span class="hljs-…">`s. */
export function highlightAs(language: string, code: string): string {
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
