import { lsTree, isObjectId } from "./objects.ts";

/**
 * Language statistics of a tree, in the manner of Gitea's GetLanguageStats (go-enry): bytes per
 * language over the blobs of the tree, leaving out vendored, generated, documentation, dot- and
 * configuration files; only programming and markup languages count; sub-languages fold into their group
 * (SCSS into CSS, TSX into TypeScript). Detection is by file name and extension only (go-enry
 * also reads contents and .gitattributes linguist overrides; hearth does not yet).
 */

type Kind = "programming" | "markup" | "data" | "prose";

interface Lang {
  name: string;
  kind: Kind;
  group?: string;
}

const P = (name: string, group?: string): Lang => ({ name, kind: "programming", group });
const M = (name: string, group?: string): Lang => ({ name, kind: "markup", group });
const D = (name: string): Lang => ({ name, kind: "data" });
const R = (name: string): Lang => ({ name, kind: "prose" });

const BY_EXTENSION: Record<string, Lang> = {};
const add = (lang: Lang, ...exts: string[]) => {
  for (const e of exts) BY_EXTENSION[e] = lang;
};

add(P("Go"), ".go");
add(P("JavaScript"), ".js", ".mjs", ".cjs", ".jsm", ".es6");
add(P("JavaScript"), ".jsx");
add(P("TypeScript"), ".ts", ".mts", ".cts");
add(P("TSX", "TypeScript"), ".tsx");
add(P("Python"), ".py", ".pyw", ".pyi");
add(P("Ruby"), ".rb", ".rake", ".gemspec");
add(P("Rust"), ".rs");
add(P("Java"), ".java");
add(P("Kotlin"), ".kt", ".kts");
add(P("Scala"), ".scala", ".sc");
add(P("Groovy"), ".groovy", ".gradle");
add(P("Clojure"), ".clj", ".cljs", ".cljc", ".edn");
add(P("C"), ".c", ".h");
add(P("C++"), ".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".ino");
add(P("C#"), ".cs", ".csx");
add(P("F#"), ".fs", ".fsi", ".fsx");
add(P("Visual Basic .NET"), ".vb");
add(P("Objective-C"), ".m");
add(P("Objective-C++"), ".mm");
add(P("Swift"), ".swift");
add(P("Dart"), ".dart");
add(P("PHP"), ".php", ".phtml", ".php3", ".php4", ".php5", ".phps");
add(P("Perl"), ".pl", ".pm", ".t");
add(P("Raku"), ".raku", ".rakumod", ".p6", ".pm6");
add(P("Lua"), ".lua");
add(P("R"), ".r");
add(P("Julia"), ".jl");
add(P("Haskell"), ".hs", ".lhs");
add(P("Elm"), ".elm");
add(P("Erlang"), ".erl", ".hrl");
add(P("Elixir"), ".ex", ".exs");
add(P("OCaml"), ".ml", ".mli");
add(P("Nim"), ".nim");
add(P("Zig"), ".zig");
add(P("V"), ".v");
add(P("D"), ".d");
add(P("Crystal"), ".cr");
add(P("Fortran"), ".f", ".f90", ".f95", ".f03", ".for");
add(P("Pascal"), ".pas", ".pp");
add(P("Ada"), ".adb", ".ads");
add(P("COBOL"), ".cob", ".cbl");
add(P("Common Lisp"), ".lisp", ".cl");
add(P("Emacs Lisp"), ".el");
add(P("Scheme"), ".scm", ".ss");
add(P("Racket"), ".rkt");
add(P("Prolog"), ".pro");
add(P("Assembly"), ".asm", ".s", ".nasm");
add(P("Shell"), ".sh", ".bash", ".zsh", ".ksh");
add(P("Fish"), ".fish");
add(P("PowerShell"), ".ps1", ".psm1", ".psd1");
add(P("Batchfile"), ".bat", ".cmd");
add(P("Makefile"), ".mk", ".mak");
add(P("CMake"), ".cmake");
add(P("Dockerfile"), ".dockerfile");
add(P("Nix"), ".nix");
add(P("HCL"), ".hcl", ".tf");
add(P("Starlark"), ".bzl", ".star");
add(P("Solidity"), ".sol");
add(P("GLSL"), ".glsl", ".vert", ".frag");
add(P("HLSL"), ".hlsl");
add(P("CUDA"), ".cu", ".cuh");
add(P("Verilog"), ".sv", ".svh");
add(P("VHDL"), ".vhd", ".vhdl");
add(P("Tcl"), ".tcl");
add(P("AutoHotkey"), ".ahk");
add(P("Vim Script"), ".vim");
add(P("CoffeeScript"), ".coffee");
add(P("LiveScript"), ".ls");
add(P("PureScript"), ".purs");
add(P("ReScript"), ".res");
add(P("Reason"), ".re");
add(P("Gleam"), ".gleam");
add(P("Odin"), ".odin");
add(P("Hack"), ".hack");
add(P("GDScript"), ".gd");
add(P("Smalltalk"), ".st");
add(P("Awk"), ".awk");
add(P("Jupyter Notebook"), ".ipynb");
add(P("WebAssembly"), ".wat", ".wast");
add(P("Mojo"), ".mojo");
add(M("HTML"), ".html", ".htm", ".xhtml");
add(M("CSS"), ".css");
add(M("SCSS", "CSS"), ".scss");
add(M("Sass", "CSS"), ".sass");
add(M("Less", "CSS"), ".less");
add(M("Stylus", "CSS"), ".styl");
add(M("Vue"), ".vue");
add(M("Svelte"), ".svelte");
add(M("Astro"), ".astro");
add(M("Pug", "HTML"), ".pug", ".jade");
add(M("Haml", "HTML"), ".haml");
add(M("Handlebars", "HTML"), ".hbs", ".handlebars");
add(M("Twig", "HTML"), ".twig");
add(M("Go Template", "HTML"), ".tmpl", ".gohtml");
add(M("TeX"), ".tex", ".sty", ".cls");
add(M("Roff"), ".roff", ".man");
add(M("Jinja", "HTML"), ".jinja", ".jinja2", ".j2");
add(M("Liquid", "HTML"), ".liquid");
add(M("EJS", "HTML"), ".ejs");
add(M("Razor", "HTML"), ".cshtml", ".razor");
add(R("Markdown"), ".md", ".markdown", ".mdx");
add(R("reStructuredText"), ".rst");
add(R("AsciiDoc"), ".adoc", ".asciidoc");
add(R("Text"), ".txt");
add(R("Org"), ".org");
add(D("JSON"), ".json", ".jsonc", ".json5", ".geojson");
add(D("YAML"), ".yml", ".yaml");
add(D("TOML"), ".toml");
add(D("XML"), ".xml", ".xsd", ".xsl", ".xslt", ".plist", ".csproj", ".vbproj", ".fsproj", ".props", ".targets", ".svg");
add(D("INI"), ".ini", ".cfg", ".prefs", ".properties");
add(D("CSV"), ".csv", ".tsv");
add(D("SQL"), ".sql");
add(D("Protocol Buffer"), ".proto");
add(D("GraphQL"), ".graphql", ".gql");
add(D("Diff"), ".diff", ".patch");

/** Exact file names (go-enry's filename table, the common part). */
const BY_FILENAME: Record<string, Lang> = {
  Makefile: P("Makefile"),
  makefile: P("Makefile"),
  GNUmakefile: P("Makefile"),
  Dockerfile: P("Dockerfile"),
  Containerfile: P("Dockerfile"),
  "CMakeLists.txt": P("CMake"),
  Rakefile: P("Ruby"),
  Gemfile: P("Ruby"),
  Jenkinsfile: P("Groovy"),
  BUILD: P("Starlark"),
  "BUILD.bazel": P("Starlark"),
  WORKSPACE: P("Starlark"),
  Vagrantfile: P("Ruby"),
  "meson.build": P("Meson"),
};

/** go-enry's configuration languages: never counted. */
const CONFIGURATION = new Set(["XML", "JSON", "TOML", "YAML", "INI", "SQL"]);

// A condensed version of linguist's vendor.yml, as go-enry applies it.
const VENDOR = [
  /(^|\/)(node_modules|bower_components|jspm_packages|vendor|vendors|Vendor|third[-_]?party|3rd[-_]?party|deps|Godeps|_vendor|extern|external|Pods|Carthage|\.yarn)\//,
  /(^|\/)cache\//,
  /(^|\/)dist\//,
  /\.min\.(js|css)$/,
  /(^|\/)(jquery|bootstrap|modernizr|prototype|mootools|dojo|yui|underscore|backbone|angular|ember|react|vue|d3|three|lodash|moment)([-.][^/]*)?\.(js|css)$/i,
  /-vsdoc\.js$/,
  /\.intellisense\.js$/,
  /(^|\/)(gradlew|gradlew\.bat|mvnw|mvnw\.cmd)$/,
  /(^|\/)gradle\/wrapper\//,
  /(^|\/)\.mvn\/wrapper\//,
  /(^|\/)(config\.guess|config\.sub|configure|install-sh|missing|depcomp|ltmain\.sh)$/,
  /(^|\/)debian\//,
  /(^|\/)Samples\//,
  /(^|\/)(fabfile|waf)\.py$/,
  /^(.*\/)?\.vscode\//,
];

// linguist's documentation.yml.
const DOCUMENTATION = [
  /(^|\/)([Dd]ocs?|[Dd]ocumentation|[Jj]avadoc|[Mm]an|[Ee]xamples?|[Ss]amples?|[Dd]emos?)\//,
  /(^|\/)(CHANGE(S|LOG)?|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|[Ll]icen[cs]e|README|[Rr]eadme|NEWS|AUTHORS|NOTICE|CODE_OF_CONDUCT|SECURITY|HISTORY)(\.[^/]*)?$/,
];

// linguist's generated.rb, the path-based part.
const GENERATED = [
  /\.pb\.go$/,
  /_pb2(_grpc)?\.py$/,
  /\.pb\.(cc|h)$/,
  /\.(designer|generated)\.(cs|vb)$/,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|composer\.lock|Gemfile\.lock|poetry\.lock|Pipfile\.lock|bun\.lockb?)$/,
  /\.(js|css)\.map$/,
  /(^|\/)__generated__\//,
  /_generated\.go$/,
  /\.gen\.(go|ts|js)$/,
];

function detect(path: string): Lang | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const byName = BY_FILENAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return BY_EXTENSION[base.slice(dot).toLowerCase()];
}

/** Whether go-enry would leave the path out of the statistics before looking at its language. */
export function isExcludedPath(path: string): boolean {
  if (path.split("/").some((part) => part.startsWith("."))) return true;
  return VENDOR.some((r) => r.test(path)) || DOCUMENTATION.some((r) => r.test(path)) || GENERATED.some((r) => r.test(path));
}

/** The language a path counts under (programming and markup only), or undefined. */
export function languageOf(path: string): string | undefined {
  if (isExcludedPath(path)) return undefined;
  const lang = detect(path);
  if (!lang || CONFIGURATION.has(lang.name)) return undefined;
  if (lang.kind !== "programming" && lang.kind !== "markup") return undefined;
  return lang.group ?? lang.name;
}

/** Sums `files` (path and size) into bytes per language, largest first. */
export function languageStats(files: { path: string; size: number }[]): [string, number][] {
  const sizes = new Map<string, number>();
  for (const f of files) {
    if (f.size <= 0) continue;
    const lang = languageOf(f.path);
    if (lang) sizes.set(lang, (sizes.get(lang) ?? 0) + f.size);
  }
  return [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

const cache = new Map<string, [string, number][]>();
const CACHE_MAX = 256;

/** Language statistics of the tree of `commit` (an object id), cached per repository and commit. */
export async function treeLanguageStats(gitDir: string, commit: string): Promise<[string, number][]> {
  if (!isObjectId(commit)) return [];
  const key = `${gitDir}\0${commit}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const entries = await lsTree(gitDir, commit, true);
  // Regular and executable files only: no symlinks, trees or submodules.
  const files = entries.filter((e) => e.type === "blob" && (e.mode === "100644" || e.mode === "100755"));
  const stats = languageStats(files);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, stats);
  return stats;
}
