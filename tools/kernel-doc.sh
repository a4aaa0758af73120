#!/bin/bash
# Runs the kernel's scripts/kernel-doc (from the installed headers of the
# newest kernel line) over the module's C sources and headers (kernel/,
# kernel/core/) with every warning on (-Wall: undescribed parameters,
# struct members and return values, misnamed functions). Fails on any.
# Usage: kernel-doc.sh
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
script=$(ls -d /usr/src/linux-headers-*-common/scripts/kernel-doc 2>/dev/null | sort -V | tail -n 1)
[[ -n $script ]] || { echo "kernel-doc.sh: no scripts/kernel-doc in /usr/src/linux-headers-*-common (run 'make deps')" >&2; exit 1; }
cd "$tree"
files=(kernel/*.[ch] kernel/core/*.[ch])
report=$(perl "$script" -none -Wall "${files[@]}" 2>&1)
if [[ -n $report ]]; then
	echo "$report"
	echo "kernel-doc.sh: $(grep -c . <<<"$report") warnings in ${#files[@]} files ($script)" >&2
	exit 1
fi
echo "kernel-doc.sh: ${#files[@]} files clean ($script)"
