/* npydt cstruct: the C type of each NumPy scalar type. */
#include "cstruct/cstruct.h"

#include <string.h>

/* The scalar types with a C type of their size on this machine: kind,
 * itemsize, the C type and its alignment; ext80 for the x87 extended
 * types (f16, c32), written as their bytes. */
static const struct {
    char kind;
    size_t size;
    const char *ctype;
    size_t calign;
    int ext80;
} c_types[] = {
    {'b', 1, "uint8_t", _Alignof(uint8_t), 0},
    {'i', 1, "int8_t", _Alignof(int8_t), 0},
    {'i', 2, "int16_t", _Alignof(int16_t), 0},
    {'i', 4, "int32_t", _Alignof(int32_t), 0},
    {'i', 8, "int64_t", _Alignof(int64_t), 0},
    {'u', 1, "uint8_t", _Alignof(uint8_t), 0},
    {'u', 2, "uint16_t", _Alignof(uint16_t), 0},
    {'u', 4, "uint32_t", _Alignof(uint32_t), 0},
    {'u', 8, "uint64_t", _Alignof(uint64_t), 0},
    {'f', 2, "uint16_t", _Alignof(uint16_t), 0},
    {'f', sizeof(float), "float", _Alignof(float), 0},
    {'f', sizeof(double), "double", _Alignof(double), 0},
    {'f', 16, "uint8_t", 1, 1},
    {'c', 2 * sizeof(float), "npydt_cfloat_t", _Alignof(float _Complex), 0},
    {'c', 2 * sizeof(double), "npydt_cdouble_t", _Alignof(double _Complex), 0},
    {'c', 32, "uint8_t", 1, 1},
    {'M', 8, "int64_t", _Alignof(int64_t), 0},
    {'m', 8, "int64_t", _Alignof(int64_t), 0},
};

void cstruct_map_scalar(const npydt_dtype *dt, struct scalar_map *m)
{
    size_t n = npydt_dtype_itemsize(dt);
    char kind = npydt_dtype_kind(dt);
    memset(m, 0, sizeof *m);
    /* strings and raw bytes: an array of their units */
    if (kind == 'S' || kind == 'V') {
        m->ctype = "char", m->csize = 1, m->calign = 1, m->inner = n;
        if (kind == 'V')
            m->ctype = "uint8_t";
        return;
    }
    if (kind == 'U') {
        m->ctype = "uint32_t", m->csize = 4, m->calign = _Alignof(uint32_t), m->inner = n / 4;
        return;
    }
    for (size_t i = 0; i < sizeof c_types / sizeof c_types[0]; i++) {
        if (c_types[i].kind == kind && c_types[i].size == n) {
            m->ctype = c_types[i].ctype;
            m->calign = c_types[i].calign;
            m->ext80 = c_types[i].ext80;
            /* the extended types: an array of their bytes */
            m->csize = m->ext80 ? 1 : n;
            m->inner = m->ext80 ? n : 0;
            return;
        }
    }
    /* a size this machine's float or double does not have */
    m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->raw = 1;
}
