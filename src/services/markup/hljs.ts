/**
 * highlight.js with the languages hearth highlights: its common set and a few more that
 * repositories are full of (Dockerfiles, CMake, protobuf, shell scripts for Windows...), each
 * registered from its own module so the executable carries these and not all 190 (WEB-NOTES:
 * +168 KB instead of +1.1 MB). Loaded only by modules that callers import when they render code.
 *
 * A language is always chosen by its name or the file's name, never guessed from the text.
 */
import hljs from "highlight.js/lib/core";
import apache from "highlight.js/lib/languages/apache";
import awk from "highlight.js/lib/languages/awk";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import clojure from "highlight.js/lib/languages/clojure";
import cmake from "highlight.js/lib/languages/cmake";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import dart from "highlight.js/lib/languages/dart";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import dos from "highlight.js/lib/languages/dos";
import elixir from "highlight.js/lib/languages/elixir";
import elm from "highlight.js/lib/languages/elm";
import erlang from "highlight.js/lib/languages/erlang";
import fsharp from "highlight.js/lib/languages/fsharp";
import go from "highlight.js/lib/languages/go";
import graphql from "highlight.js/lib/languages/graphql";
import groovy from "highlight.js/lib/languages/groovy";
import haskell from "highlight.js/lib/languages/haskell";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import julia from "highlight.js/lib/languages/julia";
import kotlin from "highlight.js/lib/languages/kotlin";
import latex from "highlight.js/lib/languages/latex";
import less from "highlight.js/lib/languages/less";
import lisp from "highlight.js/lib/languages/lisp";
import lua from "highlight.js/lib/languages/lua";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import nginx from "highlight.js/lib/languages/nginx";
import nix from "highlight.js/lib/languages/nix";
import objectivec from "highlight.js/lib/languages/objectivec";
import ocaml from "highlight.js/lib/languages/ocaml";
import perl from "highlight.js/lib/languages/perl";
import php from "highlight.js/lib/languages/php";
import phpTemplate from "highlight.js/lib/languages/php-template";
import plaintext from "highlight.js/lib/languages/plaintext";
import powershell from "highlight.js/lib/languages/powershell";
import properties from "highlight.js/lib/languages/properties";
import protobuf from "highlight.js/lib/languages/protobuf";
import python from "highlight.js/lib/languages/python";
import pythonRepl from "highlight.js/lib/languages/python-repl";
import r from "highlight.js/lib/languages/r";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scala from "highlight.js/lib/languages/scala";
import scheme from "highlight.js/lib/languages/scheme";
import scss from "highlight.js/lib/languages/scss";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import vbnet from "highlight.js/lib/languages/vbnet";
import vim from "highlight.js/lib/languages/vim";
import wasm from "highlight.js/lib/languages/wasm";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  apache, awk, bash, c, clojure, cmake, cpp, csharp, css, dart, diff, dockerfile, dos, elixir, elm, erlang, fsharp,
  go, graphql, groovy, haskell, ini, java, javascript, json, julia, kotlin, latex, less, lisp, lua, makefile,
  markdown, nginx, nix, objectivec, ocaml, perl, php, "php-template": phpTemplate, plaintext, powershell,
  properties, protobuf, python, "python-repl": pythonRepl, r, ruby, rust, scala, scheme, scss, shell, sql, swift,
  typescript, vbnet, vim, wasm, xml, yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

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
