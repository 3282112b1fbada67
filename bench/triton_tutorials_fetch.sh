#!/bin/sh
# Fetches the Triton tutorial files that bench/triton_tutorials.list names,
# each at the commit its rows give, from GitHub into DIR (they are Triton's
# and stay out of this repository).
#
#   sh bench/triton_tutorials_fetch.sh DIR
set -eu
dir=${1:?usage: sh bench/triton_tutorials_fetch.sh DIR}
mkdir -p "$dir"
python3 -c '
import json, sys
seen = set()
for l in open(sys.argv[1]):
    if l.startswith("{"):
        r = json.loads(l)
        if r["file"] not in seen:
            seen.add(r["file"])
            print(r["commit"], r["file"])
' "$(dirname "$0")/triton_tutorials.list" | while read -r commit file; do
	curl -fsSL "https://raw.githubusercontent.com/triton-lang/triton/$commit/python/tutorials/$file" \
		-o "$dir/$file"
	echo "$dir/$file ($commit)"
done
