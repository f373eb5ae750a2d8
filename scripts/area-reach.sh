#!/bin/bash
# For each area folder: production .ts files outside its two folders (libs/areas/src/<a>, apps/gateway/src/areas/<a>)
# that import its folder or name its definition(s) / namespace export. Usage: bash scripts/area-reach.sh [checkout] (#45: how far each area reaches outside its folders)
cd "${1:-$(dirname "$0")/..}"
for a in afip firs jofotara ksef myinvois peppol toy uae verifactu; do
  def=$(grep -rhoE "export const [a-zA-Z]*Definitions?\b" libs/areas/src/$a/*.ts | awk '{print $3}' | tr '\n' '|' | sed 's/|$//')
  far=$(grep -rlE "from '[^']*(\.\./|areas/)$a(/[^']*)?'|\b(${def:-NO_DEFINITION})\b|import \* as $a\b|\b$a\.[a-zA-Z]+\(" --include=*.ts apps libs scripts 2>/dev/null)
  # A sibling import ('./<a>') names the area only from the folders that hold areas.
  near=$(grep -lE "from '\./$a(/[^']*)?'" libs/areas/src/*.ts apps/gateway/src/areas/*.ts apps/gateway/src/*.ts 2>/dev/null)
  files=$(printf '%s\n%s\n' "$far" "$near" | grep . | grep -v "\.spec\.ts$" | grep -v "^libs/areas/src/$a/" | grep -v "^apps/gateway/src/areas/$a/" | sort -u)
  echo "$a $(echo "$files" | grep -c .) : $(echo $files)"
done
