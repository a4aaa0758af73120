#!/bin/bash
# Builds the selftests and installs them the kselftest way under build/ksft:
# the framework files (lib.mk, kselftest_harness.h, the runner) come from
# the installed linux-source package, unpacked once; the tests land in
# build/ksft/hyperframe with a kselftest-list.txt, so the guest runs
# build/ksft/run_kselftest.sh exactly as upstream CI would.
# HF_KSFT_DIR=build/ksft-NAME installs elsewhere, so a second tree of tests
# can be built while a guest runs the first (the guest sees all of build/).
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
ksft=$(realpath -m "${HF_KSFT_DIR:-$tree/build/ksft}")
src=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[[ -n $src ]] || { echo "build-selftests: linux-source is missing (run 'make deps')" >&2; exit 1; }

stamp=$ksft/.source
if [[ ! -f $stamp || $(cat "$stamp") != "$src" ]]; then
	rm -rf "$ksft"
	mkdir -p "$ksft"
	top=$(basename "$src" .tar.xz)
	tar -xJf "$src" -C "$ksft" --strip-components=4 \
		"$top/tools/testing/selftests/lib.mk" \
		"$top/tools/testing/selftests/kselftest.h" \
		"$top/tools/testing/selftests/kselftest_harness.h" \
		"$top/tools/testing/selftests/run_kselftest.sh" \
		"$top/tools/testing/selftests/kselftest"
	echo "$src" > "$stamp"
fi

out=$ksft.obj
mkdir -p "$out"
src_dir=${HF_SELFTESTS_SRC:-$tree/selftests}
args=(-C "$src_dir" KSFT_DIR="$ksft" HF_UAPI="$tree/uapi" OUTPUT="$out")
make -s "${args[@]}" all
rm -rf "$ksft/hyperframe"
make -s "${args[@]}" INSTALL_PATH="$ksft/hyperframe" install
make -s "${args[@]}" COLLECTION=hyperframe emit_tests > "$ksft/kselftest-list.txt"
