#!/usr/bin/env bash
# Fails when a file in src/ includes a header from a layer above its own.
# The layer order is written once, in README.md's "Layers" section, as one
# line "util < tensor < ... < runtime" (bottom first): a file in src/LAYER/
# may include headers of LAYER and of the layers before it, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

order_line=$(grep -m1 -E '^util( < [a-z_]+)+$' README.md || true)
if [ -z "$order_line" ]; then
  echo "check-layers: README.md has no layer order line (\"util < tensor < ...\")" >&2
  exit 2
fi
read -r -a layers <<< "${order_line// < / }"
declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

# Every folder directly under src/ must have a place in the order.
status=0
for dir in src/*/; do
  name=$(basename "$dir")
  if [ -z "${rank[$name]+x}" ]; then
    echo "check-layers: src/$name is not in README.md's layer order: $order_line" >&2
    status=1
  fi
done

violations=0
while IFS= read -r file; do
  own=${file#src/}; own=${own%%/*}
  [ -n "${rank[$own]+x}" ] || continue
  while IFS=: read -r line target; do
    layer=${target%%/*}
    [ -n "${rank[$layer]+x}" ] || continue   # system and third-party headers
    if [ "${rank[$layer]}" -gt "${rank[$own]}" ]; then
      echo "$file:$line: includes \"$target\" from layer '$layer', above '$own'"
      violations=$((violations + 1))
    fi
  done < <(grep -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$file" |
           sed -E 's/^([0-9]+):.*"([^"]+)"/\1:\2/')
done < <(find src -type f \( -name '*.h' -o -name '*.cpp' \) | sort)

if [ "$violations" -gt 0 ]; then
  echo "check-layers: $violations include(s) point up a layer (order: $order_line)" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "check-layers: src/ follows $order_line"
exit "$status"
