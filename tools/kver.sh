#!/bin/bash
# Resolves a kernel line ("6.1", "6.12") or an exact release to the newest
# installed release that has both an image in /boot and Kbuild headers.
# Prints the release; exits 1 with a hint when the line is not installed.
set -euo pipefail

want=${1:?usage: kver.sh LINE|RELEASE}

if [[ -e /lib/modules/$want/build ]]; then
	echo "$want"
	exit 0
fi

best=
for dir in /lib/modules/"$want".*; do
	rel=${dir##*/}
	[[ $rel == "$want".* ]] || continue
	[[ -r /boot/vmlinuz-$rel && -e /lib/modules/$rel/build/Makefile ]] || continue
	best=$(printf '%s\n%s\n' "$best" "$rel" | sed '/^$/d' | sort -V | tail -n 1)
done

if [[ -z $best ]]; then
	echo "kver.sh: no installed kernel of line $want with headers (run 'make deps')" >&2
	exit 1
fi
echo "$best"
