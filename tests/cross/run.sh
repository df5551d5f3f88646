#!/bin/sh
# Builds npydt for another architecture with Debian's cross compiler and runs
# its test suite under qemu-user:
#   tests/cross/run.sh ARCH [MAKE-TARGET]     ARCH: s390x, i386 or arm64
# MAKE-TARGET is `check` (the whole suite, the default) or `check-cross`
# (the subset CI runs: the C unit tests, the fuzz-corpus replay and the
# command checks). Installs what is missing (cross gcc, qemu-user, the build
# tools) with apt-get, as root or through sudo. The target's cmocka, zlib
# and jsmn are downloaded from Debian with a private apt state and unpacked into a
# sysroot under the build directory ($O, default build-ARCH), which the test
# programs find through an rpath; nothing is installed for the target
# architecture system-wide. The NumPy-driven checks run on the host against
# the target command through qemu. CROSS_CC=clang builds with clang
# --target=TRIPLET (on the cross gcc's runtime) instead of TRIPLET-gcc.
# Extra make variables may follow the target, as in
#   tests/cross/run.sh s390x check V=1
set -eu
arch=${1:?usage: tests/cross/run.sh s390x|i386|arm64 [check|check-cross] [VAR=value...]}
shift
target=check
if [ $# -gt 0 ]; then target=$1; shift; fi
case $arch in
    s390x) triplet=s390x-linux-gnu multiarch=s390x-linux-gnu qemu=qemu-s390x ;;
    # the most capable CPU, so that the SSSE3 byteswap paths run too
    i386) triplet=i686-linux-gnu multiarch=i386-linux-gnu qemu="qemu-i386 -cpu max"
          # qemu-i386 7.2 spins for ever in a program that starts threads:
          # the command runs one thread, the pool's own tests are left out
          export NO_THREADS=1 NPYDT_JOBS=1 ;;
    arm64) triplet=aarch64-linux-gnu multiarch=aarch64-linux-gnu qemu=qemu-aarch64 ;;
    *) echo "tests/cross/run.sh: unknown architecture '$arch' (s390x, i386, arm64)" >&2; exit 2 ;;
esac
O=${O:-build-$arch}
here=$(pwd)
case $O in /*) ;; *) O=$here/$O ;; esac

# host packages: the cross compiler, qemu-user and what the build and the
# checks need; installed only when missing
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
missing=
for p in make re2c bison bc python3-numpy qemu-user "gcc-$triplet" "libc6-dev-$arch-cross"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "cross: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# the target's cmocka, zlib and jsmn, unpacked into a private sysroot
sysroot=$O/sysroot
# (made again when the list of packages changes)
target_pkgs="libcmocka0 libcmocka-dev zlib1g zlib1g-dev libjsmn-dev"
if [ "$(cat "$sysroot/.complete" 2>/dev/null)" != "$target_pkgs" ]; then
    rm -rf "$sysroot"
    apt_state=$O/apt
    mkdir -p "$apt_state/lists/partial" "$apt_state/cache/archives/partial" "$sysroot/debs"
    apt_opts="-q -o APT::Architecture=$arch -o APT::Architectures::=$arch
        -o Dir::State::Lists=$apt_state/lists -o Dir::Cache=$apt_state/cache
        -o Dir::State::status=/dev/null -o Debug::NoLocking=1"
    # an index that fails to download (a mirror in sync) matters only if
    # the packages cannot be found: then both logs say why
    # shellcheck disable=SC2086
    apt-get $apt_opts update >"$apt_state/update.log" 2>&1 ||
        apt-get $apt_opts update >"$apt_state/update.log" 2>&1 || :
    # shellcheck disable=SC2086
    (cd "$sysroot/debs" && apt-get $apt_opts download $target_pkgs) >"$apt_state/download.log" 2>&1 ||
        { cat "$apt_state/update.log" "$apt_state/download.log"; exit 1; }
    for d in "$sysroot"/debs/*.deb; do dpkg-deb -x "$d" "$sysroot"; done
    # absolute links (libz.so -> /lib/...) point into the sysroot instead
    find "$sysroot" -type l | while read -r l; do
        t=$(readlink "$l")
        case $t in /*) ln -sfn "$sysroot$t" "$l" ;; esac
    done
    echo "$target_pkgs" >"$sysroot/.complete"
fi
libdirs="$sysroot/usr/lib/$multiarch $sysroot/lib/$multiarch"
ldflags=
for d in $libdirs; do ldflags="$ldflags -L$d -Wl,-rpath,$d"; done

# qemu finds the target's C library under -L; the sysroot's libraries come
# from the programs' rpath
exec_prefix="$qemu -L /usr/$triplet"
case ${CROSS_CC:-gcc} in
    gcc) cc=$triplet-gcc ;;
    clang) cc="clang --target=$triplet" ;;
    *) echo "tests/cross/run.sh: CROSS_CC is gcc or clang, not '$CROSS_CC'" >&2; exit 2 ;;
esac
echo "cross: $arch with $cc, running under $exec_prefix ($(${qemu%% *} --version | head -n 1))"
start=$(date +%s)
rc=0
nice make -j2 O="$O" CC="$cc" \
    CFLAGS="-I$sysroot/usr/include -I$sysroot/usr/include/$multiarch" \
    LDFLAGS="${ldflags# }" \
    EXEC="$exec_prefix" "$target" "$@" || rc=$?
echo "cross: $arch $target finished in $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
