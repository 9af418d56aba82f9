/**
 * .gitignore templates offered at repository creation (`gitignores`), by name as Gitea lists them.
 * Written for hearth: the common patterns of each ecosystem.
 */
export const GITIGNORE_TEMPLATES: Record<string, string> = {
  C: `# Object files
*.o
*.ko
*.obj
*.elf

# Precompiled headers
*.gch
*.pch

# Libraries
*.lib
*.a
*.la
*.lo
*.dll
*.so
*.so.*
*.dylib

# Executables
*.exe
*.out
*.app

# Debug files
*.dSYM/
*.su
*.idb
*.pdb
`,
  "C++": `# Object files
*.o
*.obj
*.slo
*.lo

# Precompiled headers
*.gch
*.pch

# Libraries
*.lib
*.a
*.la
*.so
*.dylib
*.dll

# Executables
*.exe
*.out
*.app
`,
  Go: `# Binaries
*.exe
*.exe~
*.dll
*.so
*.dylib

# Test binaries and coverage
*.test
*.out
coverage.*

# Workspace file
go.work
go.work.sum

# Environment
.env
`,
  Java: `# Compiled classes
*.class

# Logs
*.log

# Packages
*.jar
*.war
*.nar
*.ear
*.zip
*.tar.gz
*.rar

# JVM crash logs
hs_err_pid*
replay_pid*
`,
  Maven: `target/
pom.xml.tag
pom.xml.releaseBackup
pom.xml.versionsBackup
pom.xml.next
release.properties
dependency-reduced-pom.xml
buildNumber.properties
.mvn/timing.properties
`,
  Node: `# Logs
logs
*.log
npm-debug.log*
yarn-debug.log*
yarn-error.log*

# Dependencies
node_modules/
jspm_packages/

# Coverage
coverage/
.nyc_output/

# Build output
dist/
build/
.next/
out/

# Caches
.npm
.eslintcache
.cache/

# Environment
.env
.env.*
!.env.example
`,
  Python: `# Byte-compiled files
__pycache__/
*.py[cod]
*$py.class

# Distribution and packaging
build/
dist/
*.egg-info/
*.egg
.eggs/
wheels/

# Virtual environments
.venv/
venv/
env/

# Tests and coverage
.pytest_cache/
.coverage
htmlcov/
.tox/

# Type checkers
.mypy_cache/
.ruff_cache/

# Environment
.env
`,
  Rust: `# Build output
debug/
target/

# Backup files from rustfmt
**/*.rs.bk

# Debug information from MSVC
*.pdb
`,
  macOS: `.DS_Store
.AppleDouble
.LSOverride
Icon
._*
.Spotlight-V100
.Trashes
`,
  Windows: `Thumbs.db
Thumbs.db:encryptable
ehthumbs.db
ehthumbs_vista.db
*.stackdump
[Dd]esktop.ini
$RECYCLE.BIN/
*.lnk
`,
  Linux: `*~
.fuse_hidden*
.directory
.Trash-*
.nfs*
`,

  Ruby: `# Installed gems and bundler state
.bundle/
vendor/bundle/
*.gem

# Generated documentation
.yardoc/
_yardoc/
doc/
rdoc/

# Tests and coverage
coverage/
spec/reports/
test/tmp/
test/version_tmp/

# Runtime files
tmp/
log/
*.log
.byebug_history

# Environment
.env
.ruby-gemset
`,
  Rails: `# Dependencies
.bundle/
vendor/bundle/
node_modules/

# Logs, temp files, pids
log/*
tmp/*
!log/.keep
!tmp/.keep
*.pid

# Uploaded files and compiled assets
storage/*
!storage/.keep
public/assets/
public/packs/
public/uploads/

# Local databases
db/*.sqlite3
db/*.sqlite3-*

# Secrets
config/master.key
config/credentials/*.key
.env
`,
  Composer: `# Dependencies installed by Composer
vendor/

# Local tool caches
.phpunit.result.cache
.php-cs-fixer.cache
composer.phar
`,
  Laravel: `# Dependencies
vendor/
node_modules/

# Built front-end assets
public/build/
public/hot
public/storage

# Storage and caches
storage/*.key
storage/logs/
storage/framework/cache/
storage/framework/sessions/
storage/framework/views/
bootstrap/cache/*.php

# Environment and tooling
.env
.env.backup
.phpunit.result.cache
`,
  Symfony: `# Dependencies
vendor/
node_modules/

# Runtime cache and logs
var/
public/bundles/
public/build/

# Local environment overrides
.env.local
.env.local.php
.env.*.local

# Test tooling
.phpunit.result.cache
phpunit.xml
`,
  Swift: `# Xcode user state and build output
xcuserdata/
DerivedData/
build/
*.xcuserstate
*.xcscmblueprint

# Swift Package Manager
.build/
.swiftpm/
Package.resolved

# CocoaPods and Carthage
Pods/
Carthage/Build/

# Fastlane artifacts
fastlane/report.xml
fastlane/screenshots/
fastlane/test_output/
`,
  "Objective-C": `# Xcode user state and build output
xcuserdata/
DerivedData/
build/
*.xcuserstate
*.hmap
*.ipa
*.dSYM.zip
*.dSYM

# Dependency managers
Pods/
Carthage/Build/
`,
  Kotlin: `# Compiled classes and packages
*.class
*.jar
*.war
*.ear

# Build tools
.gradle/
build/
out/
target/
.kotlin/

# Logs and crash files
*.log
hs_err_pid*
`,
  Gradle: `# Gradle caches and build output
.gradle/
build/
!gradle/wrapper/gradle-wrapper.jar

# Local settings
local.properties
gradle-app.setting
.gradletasknamecache
`,
  Android: `# Build output
build/
*.apk
*.aab
*.ap_
*.dex
captures/
.externalNativeBuild/
.cxx/

# Gradle and local machine settings
.gradle/
local.properties

# IDE state
.idea/
*.iml

# Signing material
*.jks
*.keystore

# Logs
*.log
`,
  Dotnet: `# Build output
[Bb]in/
[Oo]bj/
[Ll]og/
[Dd]ebug/
[Rr]elease/
x64/
x86/

# NuGet
*.nupkg
*.snupkg
packages/
project.lock.json
project.fragment.lock.json

# Tests and coverage
TestResults/
coverage*.json
coverage*.xml
*.trx
`,
  VisualStudio: `# User-specific files
*.suo
*.user
*.userosscache
*.sln.docstates
.vs/

# Build output
[Bb]in/
[Oo]bj/
[Dd]ebug/
[Rr]elease/
x64/
x86/
ipch/
*.ilk
*.pdb
*.obj
*.pch
*.tlog

# NuGet packages
*.nupkg
packages/

# Test results and profiling
TestResults/
*.trx
*.vspx
*.psess

# Caches
*.cache
*.VC.db
*.VC.opendb
`,
  Unity: `# Folders Unity regenerates
/[Ll]ibrary/
/[Tt]emp/
/[Oo]bj/
/[Bb]uild/
/[Bb]uilds/
/[Ll]ogs/
/[Uu]ser[Ss]ettings/
/[Mm]emoryCaptures/

# Generated project files
*.csproj
*.sln
*.suo
*.user
*.pidb
*.booproj
*.svd
*.pdb
*.mdb
*.opendb
*.VC.db
.vs/

# Crash reports and build artifacts
sysinfo.txt
crashlytics-build.properties
*.apk
*.aab
*.unitypackage
`,
  UnrealEngine: `# Generated folders
Binaries/
Build/
DerivedDataCache/
Intermediate/
Saved/
Plugins/*/Binaries/
Plugins/*/Intermediate/

# Generated project files
.vs/
*.sln
*.suo
*.VC.db
*.opensdf
*.sdf
*.xcworkspace
`,
  Godot: `# Godot editor state and imports
.godot/
.import/
export.cfg
export_presets.cfg

# Mono / .NET builds
.mono/
data_*/
mono_crash.*.json
`,
  Terraform: `# Provider plugins and module cache
.terraform/
.terraform.lock.hcl.bak

# State can hold secrets: keep it out of git
*.tfstate
*.tfstate.*
crash.log
crash.*.log

# Variable files often hold credentials
*.tfvars
*.tfvars.json

# Local overrides
override.tf
override.tf.json
*_override.tf
*_override.tf.json
.terraformrc
terraform.rc
`,
  Haskell: `# Build tools
dist/
dist-newstyle/
.stack-work/
cabal.project.local
cabal.project.local~
.ghc.environment.*

# Compiler output
*.o
*.hi
*.chi
*.chs.h
*.dyn_o
*.dyn_hi
*.prof
*.aux
*.hp
*.eventlog
.hpc/
.hsenv/
`,
  Elixir: `# Build and dependencies
/_build/
/deps/
/cover/
/doc/
/.fetch
*.ez

# Crash dumps
erl_crash.dump

# Phoenix static assets
/priv/static/assets/
/tmp/
`,
  Erlang: `# Build output
_build/
ebin/
*.beam
*.plt
rel/example_project
.rebar/
.rebar3/
.erlang.mk/

# Crash dumps
erl_crash.dump
`,
  Scala: `# Compiled output
*.class
*.log
target/
project/target/
project/project/

# Build servers and tools
.bloop/
.bsp/
.metals/
.scala-build/
metals.sbt
`,
  Sbt: `# sbt build output
target/
project/target/
project/project/
.bsp/
lib_managed/
src_managed/
`,
  Dart: `# Dart tool state
.dart_tool/
.packages
build/
pubspec.lock.bak

# Generated documentation
doc/api/

# Local package overrides
pubspec_overrides.yaml
`,
  Flutter: `# Dart and Flutter tool state
.dart_tool/
.flutter-plugins
.flutter-plugins-dependencies
.pub-cache/
.pub/
build/

# Platform build output
android/.gradle/
android/local.properties
ios/Pods/
ios/.symlinks/
ios/Flutter/Generated.xcconfig
ios/Flutter/flutter_export_environment.sh

# Generated and symbol files
*.g.dart.bak
app.*.symbols
app.*.map.json
`,
  CMake: `# CMake generated files
CMakeLists.txt.user
CMakeCache.txt
CMakeFiles/
CMakeScripts/
Testing/
cmake_install.cmake
install_manifest.txt
compile_commands.json
CTestTestfile.cmake
_deps/
build/
`,
  Qt: `# Build output
*.o
*.a
*.so
*.so.*
moc_*.cpp
moc_*.h
qrc_*.cpp
ui_*.h
*.qmlc
*.jsc
Makefile*
*build-*

# Qt Creator user settings
*.pro.user
*.pro.user.*
*.qbs.user
CMakeLists.txt.user*
`,
  Perl: `# Build output
blib/
_build/
cover_db/
Build
Build.bat
Makefile
Makefile.old
MYMETA.*
pm_to_blib
*.o
*.bs

# Local dependencies
local/
.carton/
`,
  R: `# Session state and history
.Rhistory
.Rapp.history
.RData
.RDataTmp
.Ruserdata

# RStudio
.Rproj.user/

# Package builds and checks
*.tar.gz
*.Rcheck/
/doc/
/Meta/

# Rendered output and caches
*_cache/
/cache/
rsconnect/
.Renviron
`,
  Julia: `# Coverage and allocation files
*.jl.cov
*.jl.*.cov
*.jl.mem

# Generated documentation
docs/build/
docs/site/

# Manifests are usually not committed for packages
Manifest.toml
`,
  Lua: `# Compiled Lua
luac.out
*.luac

# Native modules and objects
*.o
*.so
*.dll
*.dylib

# LuaRocks
*.rock
/lua_modules/
/.luarocks/
`,
  Zig: `# Build caches and output
.zig-cache/
zig-cache/
zig-out/
*.o
`,
  OCaml: `# Build output
_build/
_opam/
*.annot
*.cmo
*.cma
*.cmi
*.cmx
*.cmxs
*.cmxa
*.a
*.o
*.byte
*.native
.merlin
`,
  Clojure: `# Build output and caches
target/
classes/
checkouts/
.cpcache/
.lein-*
.nrepl-port
.shadow-cljs/
.clj-kondo/.cache/
.lsp/.cache/
pom.xml.asc
*.jar
*.class
`,
  Elm: `# Elm package cache and build output
elm-stuff/
repl-temp-*
`,
  TeX: `# Intermediate files
*.aux
*.bbl
*.bcf
*.blg
*.fdb_latexmk
*.fls
*.lof
*.log
*.lot
*.out
*.run.xml
*.synctex.gz
*.toc
*.nav
*.snm
*.vrb
_minted*/

# Output (build it instead of committing it)
*.dvi
*.xdv
`,
  Jekyll: `_site/
.sass-cache/
.jekyll-cache/
.jekyll-metadata
vendor/
`,
  Hugo: `# Generated site and cache
/public/
/resources/_gen/
/assets/jsconfig.json
hugo_stats.json
.hugo_build.lock
`,
  Vagrant: `.vagrant/
*.box
`,
  Ansible: `*.retry
.ansible/
`,
  JetBrains: `# IDE settings (IntelliJ IDEA, PyCharm, GoLand, WebStorm, Rider, ...)
.idea/
*.iml
*.ipr
*.iws
out/

# Plugin and tool state
.idea_modules/
atlassian-ide-plugin.xml
com_crashlytics_export_strings.xml
crashlytics.properties
fabric.properties
`,
  VisualStudioCode: `.vscode/*
!.vscode/settings.json
!.vscode/tasks.json
!.vscode/launch.json
!.vscode/extensions.json
!.vscode/*.code-snippets
.history/
*.vsix
`,
  SublimeText: `*.sublime-workspace
*.tmlanguage.cache
*.tmPreferences.cache
*.stTheme.cache
sftp-config.json
`,
  Eclipse: `.metadata/
bin/
tmp/
*.tmp
*.bak
*.swp
*~.nib
local.properties
.settings/
.loadpath
.recommenders/
.project
.classpath
.factorypath
.buildpath
.externalToolBuilders/
`,
  NetBeans: `nbproject/private/
nbbuild/
nbdist/
.nb-gradle/
build/
dist/
`,
  Xcode: `xcuserdata/
DerivedData/
*.xcuserstate
*.xcscmblueprint
*.xccheckout
build/
`,
  Vim: `# Swap and undo files
[._]*.s[a-v][a-z]
!*.svg
[._]*.sw[a-p]
[._]s[a-rt-v][a-z]
[._]ss[a-gi-z]
[._]sw[a-p]
*.un~

# Session and view files
Session.vim
Sessionx.vim
.netrwhist
tags
[._]*.un~
`,
  Emacs: `# Backups and auto-saves
*~
\\#*\\#
/.emacs.desktop
/.emacs.desktop.lock
*.elc
auto-save-list/
tramp
.\\#*

# Package and project state
.org-id-locations
*_archive
*_flymake.*
/eshell/history
/eshell/lastdir
/elpa/
*.rel
/auto/
.cask/
.projectile
.dir-locals-2.el
`,
  Archives: `# Compressed archives are build products or downloads, not sources
*.7z
*.bz2
*.gz
*.lz
*.lzma
*.rar
*.tar
*.tgz
*.tbz2
*.txz
*.xz
*.zip
*.zst
*.jar
*.war
*.ear
*.deb
*.rpm
*.dmg
*.iso
*.msi
`,
  Backup: `*.bak
*.gho
*.ori
*.orig
*.tmp
`,
  Patch: `*.orig
*.rej
`,
};
