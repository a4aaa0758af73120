#!/bin/bash
# The packages' test ("make deb-check"): builds them (tools/deb.sh, lintian
# included) unless --no-build, then, for each kernel line given (default
# 6.1 6.12), boots a guest whose root is an overlay on the host's with its
# writes in the guest's memory (run.sh --rw-root; the host is never
# written) and no module loaded, and runs tools/vm/pkg-test.sh there:
# dpkg -i, DKMS, autoload, the tools, dpkg -r and -P. About 16 minutes a
# line under TCG, most of it DKMS compiling the module (twice on 6.1: for
# the booted kernel and, as Debian's DKMS does, the newest installed).
# Usage: deb-check.sh [--no-build] [LINE...]
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
build=1
if [[ ${1:-} == --no-build ]]; then
	build=0
	shift
fi
lines=("$@")
((${#lines[@]})) || lines=(6.1 6.12)

((!build)) || "$tree/tools/deb.sh"
ver=$(dpkg-parsechangelog -l "$tree/debian/changelog" -S Version)
debs=()
for p in hyperframe-dkms hyperframe-tools hyperframe-libfabric libhyperframe0 libhyperframe-dev; do
	f=$(ls "$tree"/build/deb/"${p}_${ver}"_*.deb 2>/dev/null | head -n 1)
	[[ -n $f ]] || { echo "deb-check: build/deb/${p}_${ver}_*.deb is missing (make deb)" >&2; exit 1; }
	debs+=("${f#"$tree"/}")
done

rc=0
for line in "${lines[@]}"; do
	echo "== packages in a $line guest"
	# DKMS compiles under TCG: give it time and memory.
	"$tree/tools/vm/run.sh" --kernel "$line" --rw-root --no-module --timeout 1800 \
		--mem 3072 --quiet -- tools/vm/pkg-test.sh "${debs[@]}" || rc=1
done
exit "$rc"
