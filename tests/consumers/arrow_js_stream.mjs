// The Arrow IPC stream of arrow_js_stream.arrows, as Arrow JS (apache-arrow)
// writes it: tests/test_arrow_ipc.c reads it and checks its values.
//     node arrow_js_stream.mjs arrow_js_stream.arrows
import { tableToIPC, vectorFromArray, Table, Field, Struct, Int32, Float64, Utf8, Bool, FixedSizeList, Int16 } from 'apache-arrow';
import { writeFileSync } from 'fs';
const t = new Table({
  i: vectorFromArray([1, -2, null, 4, 2147483647], new Int32()),
  f: vectorFromArray([0.5, NaN, -1e300, null, 3], new Float64()),
  s: vectorFromArray(['a', '', 'héllo', null, 'x😀'], new Utf8()),
  b: vectorFromArray([true, false, null, true, true], new Bool()),
  l: vectorFromArray([[1, 2], [3, 4], null, [7, 8], [9, 10]], new FixedSizeList(2, new Field('item', new Int16(), true))),
  p: vectorFromArray([{x: 1, y: 'a'}, {x: 2, y: 'b'}, null, {x: 4, y: null}, {x: 5, y: 'e'}], new Struct([new Field('x', new Int32(), true), new Field('y', new Utf8(), true)])),
});
writeFileSync(process.argv[2], tableToIPC(t, 'stream'));
