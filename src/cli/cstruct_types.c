/* npydt cstruct: the C type of each NumPy scalar type. */
#include "cstruct_gen.h"

#include <string.h>

void cstruct_map_scalar(const npydt_dtype *dt, struct scalar_map *m)
{
    size_t n = npydt_dtype_itemsize(dt);
    memset(m, 0, sizeof *m);
    switch (npydt_dtype_kind(dt)) {
    case 'b':
        if (n == 1) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = _Alignof(uint8_t);
            return;
        }
        break;
    case 'i':
    case 'u': {
        int s = npydt_dtype_kind(dt) == 'i';
        switch (n) {
        case 1:
            m->ctype = s ? "int8_t" : "uint8_t", m->calign = _Alignof(int8_t);
            break;
        case 2:
            m->ctype = s ? "int16_t" : "uint16_t", m->calign = _Alignof(int16_t);
            break;
        case 4:
            m->ctype = s ? "int32_t" : "uint32_t", m->calign = _Alignof(int32_t);
            break;
        case 8:
            m->ctype = s ? "int64_t" : "uint64_t", m->calign = _Alignof(int64_t);
            break;
        default:
            break;
        }
        if (m->ctype) {
            m->csize = n;
            return;
        }
        break;
    }
    case 'f':
        if (n == 2) {
            m->ctype = "uint16_t", m->csize = 2, m->calign = _Alignof(uint16_t);
            return;
        } else if (n == sizeof(float)) {
            m->ctype = "float", m->csize = n, m->calign = _Alignof(float);
            return;
        } else if (n == sizeof(double)) {
            m->ctype = "double", m->csize = n, m->calign = _Alignof(double);
            return;
        } else if (n == 16) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->ext80 = 1;
            return;
        }
        break;
    case 'c':
        if (n == 2 * sizeof(float)) {
            m->ctype = "npydt_cfloat_t", m->csize = n, m->calign = _Alignof(float _Complex);
            return;
        } else if (n == 2 * sizeof(double)) {
            m->ctype = "npydt_cdouble_t", m->csize = n, m->calign = _Alignof(double _Complex);
            return;
        } else if (n == 32) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->ext80 = 1;
            return;
        }
        break;
    case 'S':
        m->ctype = "char", m->csize = 1, m->calign = 1, m->inner = n;
        return;
    case 'U':
        m->ctype = "uint32_t", m->csize = 4, m->calign = _Alignof(uint32_t), m->inner = n / 4;
        return;
    case 'V':
        m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n;
        return;
    case 'M':
    case 'm':
        if (n == 8) {
            m->ctype = "int64_t", m->csize = 8, m->calign = _Alignof(int64_t);
            return;
        }
        break;
    default:
        break;
    }
    m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->raw = 1;
}

