#!/bin/bash
# Runs the kernel's checkpatch.pl --strict over the module's C sources and
# headers (kernel/, kernel/core/, tools/debug-kernel/selftest/). The script
# comes from Debian's linux-source-6.1 tarball, extracted once into
# build/checkpatch/. Fails on any error, warning or check except these,
# which the code keeps on purpose:
#   PREFER_KERNEL_TYPES, BIT_MACRO  kernel/core/ is plain C that also
#       builds in userspace: it defines u8.. from <stdint.h> and has no BIT()
#   LINUX_VERSION_CODE, CONSTANT_COMPARISON  hf_compat.h bridges 6.1 and
#       6.12, which is what version checks are for
#   CONST_STRUCT  the proto_ops take the family number at init and are
#       __ro_after_init instead
#   UNCOMMENTED_DEFINITION  locks are described in their struct's
#       kernel-doc, which checkpatch does not read
#   CAMELCASE  the qdisc API's own type names (struct Qdisc, Qdisc_ops)
# and, in kernel/hf_trace.h only, the layout TRACE_EVENT() imposes (as in
# include/trace/events/): OPEN_ENDED_LINE, PARENTHESIS_ALIGNMENT,
# COMPLEX_MACRO and MACRO_ARG_REUSE (field lists shared between events);
# in the files that define or expand the tunables table (HF_TUNABLES(),
# an X-macro as the kernel's own DEFINE_DROP_REASON()) or hfq's settings
# table (HFQ_U32_SETTINGS()), what checkpatch
# says of every such table: COMPLEX_MACRO, MACRO_ARG_REUSE,
# MACRO_ARG_PRECEDENCE, MULTISTATEMENT_MACRO_USE_DO_WHILE and
# TRAILING_SEMICOLON (an expansion is a list of declarations or
# statements, never used as one expression).
# Usage: checkpatch.sh
set -euo pipefail

tree=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd -P)
tarball=/usr/src/linux-source-6.1.tar.xz
dir=$tree/build/checkpatch
script=$dir/scripts/checkpatch.pl

if [[ ! -x $script || $script -ot $tarball ]]; then
	[[ -r $tarball ]] || { echo "checkpatch.sh: $tarball is missing (run 'make deps')" >&2; exit 1; }
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	touch "$script"
fi

cd "$tree"
ignore=PREFER_KERNEL_TYPES,BIT_MACRO,LINUX_VERSION_CODE,CONSTANT_COMPARISON,CONST_STRUCT,UNCOMMENTED_DEFINITION,CAMELCASE
trace=kernel/hf_trace.h
tables=(kernel/hf_params.h kernel/hf_main.c kernel/hf_genl.c kernel/hf_hfq.h kernel/hf_hfq.c kernel/hf_genl_qdisc.c)
mapfile -t files < <(ls kernel/*.[ch] kernel/core/*.[ch] tools/debug-kernel/selftest/*.c |
	grep -vxF -e "$trace" "${tables[@]/#/-e}")
{
	perl "$script" --no-tree --strict --terse --show-types --ignore "$ignore" \
		-f "${files[@]}"
	perl "$script" --no-tree --strict --terse --show-types \
		--ignore "$ignore,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,COMPLEX_MACRO,MACRO_ARG_REUSE" \
		-f "$trace"
	perl "$script" --no-tree --strict --terse --show-types \
		--ignore "$ignore,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON" \
		-f "${tables[@]}"
} | tee "$dir/report" | grep -v '^total: 0 errors, 0 warnings, 0 checks' || true
files+=("$trace" "${tables[@]}")
if grep -qE '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$dir/report"; then
	echo "checkpatch.sh: $(grep -cE ': (ERROR|WARNING|CHECK):' "$dir/report") problems in ${#files[@]} files" >&2
	exit 1
fi
echo "checkpatch.sh: ${#files[@]} files clean"
