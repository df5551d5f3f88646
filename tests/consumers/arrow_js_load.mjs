// Arrow IPC streams as Arrow JS (apache-arrow) writes them, for
// `npydt load --arrow` (tests/check_arrow_load.sh; arrow_js_load_check.py
// checks what it loads):
//     node arrow_js_load.mjs TABLE.arrow NULL.arrow LIST.arrow [FILE.arrow]
// TABLE: ints, floats, bool, timestamps, a struct, a fixed-size list and
// utf8 (longest value 8 bytes); NULL: an int column with a null; LIST: a
// variable-length list, which NumPy has no type for; FILE: TABLE in the
// IPC file format (magic, batches, a footer holding the schema).
import {
  tableToIPC, vectorFromArray, Table, Field, Struct, Int8, Int32, Int64, Uint16, Float32,
  Float64, Utf8, Bool, FixedSizeList, Int16, TimestampMillisecond, TimestampNanosecond, List,
} from 'apache-arrow';
import { writeFileSync } from 'fs';

const rows = 3;
const t = new Table({
  i8: vectorFromArray([-128, 0, 127], new Int8()),
  i64: vectorFromArray([-9007199254740993n, 0n, 9223372036854775807n], new Int64()),
  u16: vectorFromArray([0, 1, 65535], new Uint16()),
  f32: vectorFromArray([1.5, -0.25, 3.0e38], new Float32()),
  f64: vectorFromArray([0.1, -1e300, Infinity], new Float64()),
  b: vectorFromArray([true, false, true], new Bool()),
  ms: vectorFromArray([0, 1700000000123, -1000], new TimestampMillisecond()),
  ns: vectorFromArray([0, 1700000123, -1], new TimestampNanosecond()),  // given in ms
  p: vectorFromArray([{ x: 1, y: 0.5 }, { x: -2, y: 1.5 }, { x: 3, y: -2.5 }],
    new Struct([new Field('x', new Int32(), false), new Field('y', new Float64(), false)])),
  l: vectorFromArray([[1, 2, 3], [4, 5, 6], [-7, -8, -9]],
    new FixedSizeList(3, new Field('item', new Int16(), false))),
  s: vectorFromArray(['a', '', 'héllo!'], new Utf8()),
});
if (t.numRows !== rows) throw new Error('rows');
writeFileSync(process.argv[2], tableToIPC(t, 'stream'));
if (process.argv[5]) writeFileSync(process.argv[5], tableToIPC(t, 'file'));

const n = new Table({ n: vectorFromArray([1, null, 3], new Int32()) });
writeFileSync(process.argv[3], tableToIPC(n, 'stream'));

const l = new Table({
  l: vectorFromArray([[1], [2, 3], []], new List(new Field('item', new Int32(), true))),
});
writeFileSync(process.argv[4], tableToIPC(l, 'stream'));
