#!/bin/bash
# Builds the libFuzzer targets of the protocol core (userspace/fuzz) with
# clang-14 in build/fuzz and runs each for SECONDS (default 60) over a copy
# of its seed corpus, userspace/fuzz/corpus/NAME: the tree's corpus is only
# written with --update-corpus, which merges into it the inputs of the run
# that add coverage. Prints libFuzzer's final statistics (executions,
# executions per second, coverage); a crash, a sanitizer report or a broken
# invariant leaves its input in build/fuzz/artifacts/ and fails the script.
# Usage: fuzz.sh [SECONDS] [--update-corpus]
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
secs=60
update=0
for arg in "$@"; do
	case $arg in
	--update-corpus) update=1 ;;
	-h | --help)
		sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*[!0-9]* | '')
		echo "fuzz.sh: bad argument '$arg' (usage: fuzz.sh [SECONDS] [--update-corpus])" >&2
		exit 2
		;;
	*) secs=$((10#$arg)) ;;
	esac
done
if ((secs < 1)); then
	echo "fuzz.sh: SECONDS must be at least 1 (libFuzzer takes 0 as no limit)" >&2
	exit 2
fi

targets=(hf_frame hf_cc)
build=$tree/build/fuzz
artifacts=$build/artifacts

for tool in clang-14 clang++-14 cmake; do
	if ! command -v "$tool" >/dev/null; then
		echo "fuzz.sh: $tool not found (Debian: clang-14, cmake)" >&2
		exit 1
	fi
done
rt=$(clang-14 -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a
if [[ ! -f $rt ]]; then
	echo "fuzz.sh: no libFuzzer runtime at $rt (Debian: libclang-rt-14-dev)" >&2
	exit 1
fi

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
mkdir -p "$build"
cmake -S "$tree/userspace" -B "$build" "${gen[@]}" -DHF_FUZZ=ON -DHF_BUILD_TESTS=OFF \
	-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >"$build/configure.log" 2>&1 ||
	{ cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" --target "${targets[@]/%/_fuzz}"

work=$(mktemp -d "${TMPDIR:-/tmp}/hf-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

# count DIR: files in DIR
count()
{
	find "$1" -maxdepth 1 -type f | wc -l
}

failed=0
for name in "${targets[@]}"; do
	bin=$build/fuzz/${name}_fuzz
	seeds=$tree/userspace/fuzz/corpus/$name
	corpus=$work/$name
	log=$build/$name.log
	mkdir -p "$corpus"
	cp -- "$seeds"/* "$corpus"/
	echo "fuzz.sh: $name for ${secs}s over $(count "$corpus") seeds (log: $log)"
	rc=0
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=25 -rss_limit_mb=2048 \
		-artifact_prefix="$artifacts/$name-" "$corpus" >"$log" 2>&1 || rc=$?
	if ((rc)); then
		echo "fuzz.sh: $name FAILED (exit $rc); inputs in $artifacts:" >&2
		grep -E 'invariant broken|ERROR:|SUMMARY:|Test unit written' "$log" >&2 || tail -n 40 "$log" >&2
		failed=1
		continue
	fi
	grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1
	grep -E '^stat::' "$log"
	if ((update)); then
		before=$(count "$seeds")
		"$bin" -merge=1 "$seeds" "$corpus" >"$build/$name.merge.log" 2>&1
		echo "fuzz.sh: $name corpus $before -> $(count "$seeds") files"
	fi
done
exit $failed
