/* NumPy 1.24's np.can_cast(from, to, 'safe'), shared by the schema checker. */
#ifndef NPYDT_CANCAST_H
#define NPYDT_CANCAST_H

#include "dtype/dtype.h"

/* Safe cast between two scalar nodes (any byte orders). With
 * unsized_is_class, a 'to' of S0, U0 or V0 stands for the whole type class,
 * as it does at the top of np.can_cast; otherwise it is a type of size 0,
 * as a struct field or subarray base is. */
bool cancast_scalar(const npydt_dtype *from, const npydt_dtype *to, bool unsized_is_class);

/* Is a cast between two datetime (or two timedelta) scalars one NumPy
 * counts as no cast at all, making from == to true? Not symmetric. */
bool cancast_datetime_equiv(const npydt_dtype *from, const npydt_dtype *to);

/* np.can_cast(from, to, 'safe') for any two nodes; top marks the root of
 * the call (where S0/U0/V0 mean the class). Struct fields are paired by
 * position, as NumPy pairs them; names are not compared here. */
bool cancast_node(const npydt_dtype *from, const npydt_dtype *to, bool top, unsigned depth);

/* The scalar or struct inside a subarray and every subarray nested in it
 * (what a scalar broadcasts into); a non-subarray node is its own base. */
const npydt_dtype *cancast_flat_base(const npydt_dtype *dt);

/* Do two nodes have the same subarrays, level by level? NumPy keeps a
 * subarray of subarrays apart: ((t, (2,)), (3,)) is not (t, (3, 2)). A
 * non-subarray node has none. With safe, `from` may also stop at a scalar
 * where `to` has subarrays left: a safe cast broadcasts it into them
 * (('<i2', (3,)) to (('<i4', (2,)), (3,))), except a void or object one,
 * and what is left of `from` may go into an object element whole. */
bool cancast_shapes_fit(const npydt_dtype *from, const npydt_dtype *to, bool safe);

#endif
