#!/bin/sh
# Field handles make filling records cheap: a program fills 20,000
# records of 6 fields (a <u8, four floats, an <i4) through
# npydt_writer_put_* with handles resolved once (npydt_writer_field), and
# again through npydt_writer_set_* by path. The handles' instructions
# (callgrind, deterministic; commits and the file's writes included) stay
# under half the paths'. Prints "writer-cost: N passed, M failed", or SKIP
# when valgrind is missing or cannot run the build.
O=${O:-build}
CC=${CC:-cc}
N=20000
if [ -n "${EXEC:-}" ] || [ -n "${SANITIZE:-}" ] || [ -n "${COVERAGE:-}" ]; then
    echo "SKIP: writer-cost (valgrind counts an unsanitized build of the host)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: writer-cost (valgrind not installed)"
    exit 0
fi
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
cat >"$dir/fill.c" <<'CEOF'
#include <npydt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *paths[6] = {"t", "pos.x", "pos.y", "pos.z", "temp", "id"};

int main(int argc, char **argv)
{
    static const char descr[] = "[('t', '<u8'), ('pos', [('x', '<f8'), ('y', '<f8'), "
                                "('z', '<f8')]), ('temp', '<f4'), ('id', '<i4')]";
    int by_path = argc > 3 && strcmp(argv[3], "path") == 0;
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 0, shape[1] = {0};
    npydt_dtype *dt;
    npydt_writer *w;
    npydt_error err;
    npydt_field_handle h[6];
    if (argc < 4 || npydt_header_parse_descr(descr, sizeof descr - 1, NULL, &dt, &err) ||
        npydt_writer_create_path(argv[1], dt, shape, 1, NULL, &w, &err))
        return 2;
    npydt_dtype_free(dt);
    npydt_status st = NPYDT_OK;
    for (int k = 0; k < 6 && st == NPYDT_OK; k++)
        st = npydt_writer_field(w, paths[k], &h[k], &err);
    for (uint64_t i = 0; i < n && st == NPYDT_OK; i++) {
        double v[4] = {(double)i, (double)i * 2, (double)i * 3, 20.5};
        st = by_path ? npydt_writer_set_u64(w, paths[0], i, &err)
                     : npydt_writer_put_u64(w, h[0], i, &err);
        for (int k = 1; k < 5 && st == NPYDT_OK; k++)
            st = by_path ? npydt_writer_set_double(w, paths[k], v[k - 1], &err)
                         : npydt_writer_put_double(w, h[k], v[k - 1], &err);
        if (st == NPYDT_OK)
            st = by_path ? npydt_writer_set_i64(w, paths[5], (int64_t)(i % 1000), &err)
                         : npydt_writer_put_i64(w, h[5], (int64_t)(i % 1000), &err);
        if (st == NPYDT_OK)
            st = npydt_writer_commit(w, &err);
    }
    if (npydt_writer_close(w, &err) != NPYDT_OK || st != NPYDT_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    return 0;
}
CEOF
passed=0
failed=0
# shellcheck disable=SC2086
if ! $CC -std=c11 -O2 -Iinclude -o "$dir/fill" "$dir/fill.c" "$O/libnpydt.a" ${LDFLAGS:-} -lz -lm \
        2>"$dir/cc.log"; then
    echo "FAIL writer-cost: the program does not compile:"
    head -n 20 "$dir/cc.log"
    echo "writer-cost: 0 passed, 1 failed"
    exit 1
fi
count() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$1" "$dir/fill" "$dir/$1.npy" "$N" \
        "$1" >"$dir/vg.$1" 2>&1 || return 1
    sed -n 's/^summary: *//p' "$dir/cg.$1"
}
path=$(count path)
handle=$(count handle)
if [ -z "$path" ] || [ -z "$handle" ]; then
    echo "FAIL writer-cost: the program failed under valgrind:"
    tail -n 5 "$dir/vg.path" "$dir/vg.handle"
    failed=1
else
    echo "writer-cost: $N records of 6 fields: $path instructions by path, $handle by handle"
    if [ $((handle * 2)) -lt "$path" ]; then
        passed=1
    else
        failed=1
        echo "FAIL writer-cost: handles take more than half the instructions of paths"
    fi
fi
echo "writer-cost: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
