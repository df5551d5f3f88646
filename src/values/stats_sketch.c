/* The distinct-value sketch of string columns: HyperLogLog (Flajolet,
 * Fusy, Gandouet, Meunier 2007) over 2^12 one-byte registers, with
 * linear counting while many registers are empty. Standard error
 * 1.04 / sqrt(4096), about 1.6 %. The hash is fixed (bytes_hash in
 * stats_strings.c), so an estimate is the same from run to run. */
#include "values/values.h"

#include <math.h>

double stats_hll_estimate(const unsigned char *regs)
{
    const double m = (double)STATS_HLL_SIZE;
    double inv = 0;
    size_t empty = 0;
    for (size_t j = 0; j < STATS_HLL_SIZE; j++) {
        inv += ldexp(1.0, -(int)regs[j]);
        empty += regs[j] == 0;
    }
    double alpha = 0.7213 / (1 + 1.079 / m);
    double e = alpha * m * m / inv;
    if (e <= 2.5 * m && empty > 0)
        e = m * log(m / (double)empty);
    return e;
}
