#!/bin/bash
# Resolves a kernel line ("6.1", "6.12", "debug") or an exact release to the
# newest installed release that has both an image in /boot and Kbuild
# headers. Prints the release; exits 1 with a hint when the line is not
# installed. "debug" is the sanitizer kernel built by tools/debug-kernel/
# build.sh and cached outside the checkout, not installed in /boot.
# Usage: kver.sh [--kdir|--image] LINE|RELEASE
#   --kdir   print the kernel's Kbuild directory instead of the release
#   --image  print the kernel image to boot instead of the release
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
what=release
case ${1:-} in
--kdir) what=kdir; shift ;;
--image) what=image; shift ;;
esac
want=${1:?usage: kver.sh [--kdir|--image] LINE|RELEASE}

# say RELEASE KDIR IMAGE: print what was asked for.
say()
{
	case $what in
	release) echo "$1" ;;
	kdir) echo "$2" ;;
	image) echo "$3" ;;
	esac
}

if [[ $want == debug || $want == *-hf-debug ]]; then
	dir=$("$tree/tools/debug-kernel/build.sh" --dir)
	if [[ ! -f $dir/complete ]]; then
		echo "kver.sh: the debug kernel is not built for this fragment; run" \
			"'make debug-kernel' (tools/debug-kernel/build.sh, about 25 minutes)" >&2
		exit 1
	fi
	rel=$(cat "$dir/release")
	if [[ $want != debug && $want != "$rel" ]]; then
		echo "kver.sh: the cached debug kernel is $rel, not $want" >&2
		exit 1
	fi
	say "$rel" "$dir/build" "$dir/build/arch/x86/boot/bzImage"
	exit 0
fi

if [[ -e /lib/modules/$want/build ]]; then
	say "$want" "/lib/modules/$want/build" "/boot/vmlinuz-$want"
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
say "$best" "/lib/modules/$best/build" "/boot/vmlinuz-$best"
