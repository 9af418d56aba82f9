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
};
