#!/bin/bash
# The kernel's YAML netlink tooling (tools/net/ynl: cli.py, ynl-gen-c.py;
# the schemas in Documentation/netlink/) from Debian's linux-source-6.12,
# the first line that has it, kept outside the checkout in CACHE/VERSION
# with the source tree's layout (cli.py and ynl-gen-c.py find the schemas
# by it). The package is fetched with "apt-get download" and only those
# two folders are unpacked from it: it is not installed, as its tarball in
# /usr/src would become the newest linux-source, the one
# tools/build-selftests.sh takes the kselftest framework from.
# It needs python3-yaml, and python3-jsonschema to validate specs.
#
# Usage: ynl.sh          print the directory, fetching the package first
#                        when it is missing ("make deps" does)
#        ynl.sh --check  exit 0 when it is there, print nothing
# Environment: HF_YNL_CACHE (default /var/cache/hyperframe/ynl, or
# ~/.cache/hyperframe/ynl when that is not writable).
set -euo pipefail

pkg=linux-source-6.12
user_cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hyperframe/ynl
if [[ -n ${HF_YNL_CACHE:-} ]]; then
	caches=("$HF_YNL_CACHE")
else
	# Looked up in both (a guest sees the host's over a read-only root).
	caches=(/var/cache/hyperframe/ynl "$user_cache")
fi

# The newest complete unpack.
found()
{
	local c d

	d=$(for c in "${caches[@]}"; do ls -d "$c"/*/complete || :; done 2>/dev/null |
		sort -V | tail -n 1)
	[[ -n $d ]] && dirname "$d"
}

case ${1:-} in
--check) found >/dev/null; exit ;;
"") ;;
*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

if dir=$(found); then
	echo "$dir"
	exit 0
fi

cache=${caches[0]}
if ! mkdir -p "$cache" 2>/dev/null || [[ ! -w $cache ]]; then
	cache=$user_cache
	mkdir -p "$cache"
fi
tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq "$pkg" 2>/dev/null) ||
	{ echo "ynl: apt-get download $pkg failed (apt-get update first?)" >&2; exit 1; }
deb=$(ls "$tmp"/"$pkg"_*.deb)
ver=$(dpkg-deb -f "$deb" Version)
mkdir -p "$tmp/src"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
	tar -xJ -C "$tmp/src" --strip-components=1 \
		"$pkg/tools/net/ynl" "$pkg/Documentation/netlink"
[[ -x $tmp/src/tools/net/ynl/cli.py && -f $tmp/src/Documentation/netlink/genetlink-c.yaml ]] ||
	{ echo "ynl: $pkg $ver has no tools/net/ynl" >&2; exit 1; }
echo "$pkg $ver" >"$tmp/src/complete"
dir=$cache/$ver
rm -rf "$dir"
mv "$tmp/src" "$dir"
echo "$dir"
