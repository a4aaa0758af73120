#!/bin/bash
# Installs every Debian package hyperframe needs to build, test and demo,
# including the two kernel lines it supports: Debian 12's 6.1 LTS and 6.12
# LTS from bookworm-backports (enabled from the mirror already configured,
# never a hard-coded host). Idempotent, and quick when all is present.
# Usage: deps.sh [--check] [--with PACKAGE...]
#   --check: report what is missing, install nothing
#   --with: these too (the benchmark's and the demo's plots, perf, perftest)
set -euo pipefail

check=0
extra=()
while (($#)); do
	case $1 in
	--check) check=1 ;;
	--with) shift; extra=("$@"); break ;;
	*) echo "deps: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

packages=(
	# module builds (Kbuild, W=1, sparse) and the guest kernels
	build-essential bc bison flex libelf-dev kmod sparse cpio xz-utils
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	# the debug kernel line (tools/debug-kernel): Kbuild with BTF
	libssl-dev dwarves rsync
	# VM harness
	qemu-system-x86 busybox-static file
	# selftests inside the guest
	iproute2 iputils-ping rsync perl procps psmisc tshark python3 ethtool
	# userspace (C++20)
	g++ cmake ninja-build pkg-config googletest libgtest-dev
	libboost-program-options-dev libnl-3-dev libnl-genl-3-dev
	libnl-route-3-dev libbpf-dev clang-format clang-tidy
	# hfctl probe: BPF programs (clang's BPF target), vmlinux.h and
	# skeletons (bpftool), the capability constants (linux-libc-dev)
	bpftool linux-libc-dev
	# fuzzing (libFuzzer from clang 14)
	clang-14 libclang-rt-14-dev
	# the exporter's selftest: promtool, a Prometheus server, an HTTP client
	prometheus curl
	# make deb (debian/: debhelper with dh-sequence-dkms, lintian) and the
	# packages' guest test (make deb-check: dkms builds the module, man)
	debhelper dh-dkms lintian dkms man-db
	# the libfabric provider (userspace/fabric: headers, fi_info and
	# fi_pingpong for its selftest) and Open MPI over it
	libfabric-dev libfabric-bin openmpi-bin libopenmpi-dev
	# the YNL spec's check and selftest (the kernel's YNL tooling itself
	# comes from linux-source-6.12, fetched by tools/ynl.sh, below)
	python3-yaml python3-jsonschema
)
# The backports line: its versioned image and headers, not the metapackages,
# so that linux-image-amd64 keeps pointing at 6.1.
packages+=("${extra[@]}")
bpo_line=6.12

missing=()
for p in "${packages[@]}"; do
	[[ $p == \#* ]] && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
have_bpo=$(ls -d /lib/modules/"$bpo_line".*/build 2>/dev/null | head -n 1 || true)
here=$(dirname "$(readlink -f "$0")")
have_ynl=1
"$here/ynl.sh" --check || have_ynl=0

if ((${#missing[@]} == 0)) && [[ -n $have_bpo ]] && ((have_ynl)); then
	exit 0
fi
if ((check)); then
	echo "missing: ${missing[*]}" \
		"$([[ -n $have_bpo ]] || echo "linux $bpo_line from bookworm-backports")" \
		"$( ((have_ynl)) || echo "the YNL tooling (tools/ynl.sh)")"
	exit 1
fi
if ((EUID != 0)); then
	echo "deps: packages are missing (${missing[*]}); run 'make deps' as root" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive

# Enable bookworm-backports on the mirror this machine already uses.
bpo_list=/etc/apt/sources.list.d/hyperframe-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
		grep -v security | head -n 1)
	if [[ -z $uri ]]; then
		uri=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' \
			/etc/apt/sources.list 2>/dev/null)
	fi
	[[ -n $uri ]] || { echo "deps: cannot find the Debian mirror in the apt sources" >&2; exit 1; }
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" > "$bpo_list"
fi

apt-get update -qq
# The Prometheus package would start its server on this host: the selftest
# runs its own in the guest. No service starts during this install.
if [[ " ${missing[*]} " == *" prometheus "* && ! -e /usr/sbin/policy-rc.d ]]; then
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod +x /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
if ((${#missing[@]})); then
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ -z $have_bpo ]]; then
	# The ABI name the backports metapackages point at, e.g. 6.12.57+deb12-amd64.
	abi=$(apt-cache depends "linux-image-amd64/bookworm-backports" 2>/dev/null |
		awk '/Depends: linux-image-/ {sub("linux-image-", "", $2); print $2; exit}')
	[[ $abi == "$bpo_line".* ]] || { echo "deps: no linux $bpo_line in bookworm-backports (got '$abi')" >&2; exit 1; }
	apt-get install -y -qq --no-install-recommends \
		"linux-image-$abi/bookworm-backports" "linux-headers-$abi/bookworm-backports"
fi
if ((!have_ynl)); then
	"$here/ynl.sh" >/dev/null
fi
echo "deps: installed"
