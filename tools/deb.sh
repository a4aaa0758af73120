#!/bin/bash
# Builds the Debian packages (debian/) into build/deb/: hyperframe-dkms,
# hyperframe-tools, hyperframe-libfabric, libhyperframe0, libhyperframe-dev
# (and their -dbgsym),
# from a copy of the tree's tracked and new files (never build/), then runs
# lintian over them: any error or warning that debian/*.lintian-overrides
# does not justify fails. Prints each package's size.
# Usage: [HF_DEB_OUT=DIR] deb.sh [--no-lintian]
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
lint=1
[[ ${1:-} != --no-lintian ]] || lint=0

ver=$(dpkg-parsechangelog -l "$tree/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
# HF_DEB_OUT: build elsewhere (a guest may be reading build/deb).
out=$(realpath -m "${HF_DEB_OUT:-$tree/build/deb}")
src=$out/hyperframe-$ver
rm -rf "$out"
mkdir -p "$src"
# What git knows of or would add, as it is in the work tree now.
git -C "$tree" ls-files -z --cached --others --exclude-standard |
	rsync -a --from0 --files-from=- --ignore-missing-args "$tree/" "$src/"

echo "== dpkg-buildpackage (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -b -us -uc -j"$(nproc)") > "$out/build.log" 2>&1; then
	grep -v "^\[[0-9]*/[0-9]*\]" "$out/build.log" | tail -n 25 >&2
	echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
rm -rf "$src"

changes=$out/hyperframe_${ver}_$arch.changes
for deb in "$out"/*.deb; do
	printf '%-50s %8s bytes, %6s KiB installed\n' "$(basename "$deb")" \
		"$(stat -c %s "$deb")" "$(dpkg-deb -f "$deb" Installed-Size)"
done
if ((lint)); then
	echo "== lintian"
	# Errors and warnings fail; info and pedantic tags are printed.
	lintian --fail-on error,warning --display-info "$changes"
	echo "lintian: clean (errors none, warnings none beyond the overrides)"
fi
