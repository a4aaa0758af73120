#!/bin/bash
# Builds hyperframe.ko for one kernel: a line ("6.1", "6.12", "debug"), an
# installed release, or a kernel build tree given as KDIR=... in the
# environment. The "debug" line builds against the cached sanitizer kernel
# (tools/debug-kernel/build.sh), which must have been built first.
# Kbuild before 6.13 writes objects beside the sources, so each kernel gets
# its own symlinked copy of kernel/ and uapi/ under build/kernel-RELEASE/.
# The build uses W=1 and sparse (C=1); any warning from either fails it.
# Prints the path of the built module on the last line.
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
line=${1:-6.1}

if [[ -n ${KDIR:-} ]]; then
	kdir=$(cd "$KDIR" && pwd -P)
	rel=$(make -s -C "$kdir" kernelrelease)
else
	rel=$("$tree/tools/kver.sh" "$line")
	kdir=$("$tree/tools/kver.sh" --kdir "$line")
fi

out=$tree/build/kernel-$rel
mkdir -p "$out"
# Refresh the symlink farm: new files appear, removed ones go.
find "$out/kernel" "$out/uapi" -type l -delete 2>/dev/null || true
cp -rsf "$tree/kernel" "$tree/uapi" "$out/"

check=()
if command -v sparse >/dev/null; then
	check=(C=1)
else
	echo "build-module: sparse is missing (run 'make deps')" >&2
	exit 1
fi

log=$out/build.log
set +e
make -C "$kdir" M="$out/kernel" CONFIG_HYPERFRAME=m HF_UAPI="$out/uapi" \
	W=1 "${check[@]}" modules 2>&1 | tee "$log" | grep -v '^make\[' >&2
rc=${PIPESTATUS[0]}
set -e
if ((rc)); then
	echo "build-module: build for $rel failed (log: $log)" >&2
	exit "$rc"
fi
# make's own notes (a jobserver under "make -jN") are not the compiler's.
if grep -v '^make\[' "$log" | grep -E '(warning|error):' >&2; then
	echo "build-module: warnings in the build for $rel (W=1 and sparse must be clean)" >&2
	exit 1
fi
echo "$out/kernel/hyperframe.ko"
