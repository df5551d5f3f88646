// Arrow JS (the npm package apache-arrow) reads `npydt dump --arrow` of
// every fixture: tableFromIPC of each stream, its column names and each
// value compared with NumPy's (tests/arrow_js_expect.py writes them).
//
//     node arrow_js_check.mjs EXPECT.json DIR
//
// DIR holds NAME.arrow for each NAME of EXPECT.json. Prints "arrow_js:
// N passed, M failed" and a FAIL line per file that differs.
import { tableFromIPC, makeVector, Type } from 'apache-arrow';
import { readFileSync } from 'fs';
import { join } from 'path';

const [expectPath, dir] = process.argv.slice(2);
const expected = JSON.parse(readFileSync(expectPath, 'utf8'));

function num(x) {
    if (Number.isNaN(x)) return 'nan';
    if (x === Infinity) return 'inf';
    if (x === -Infinity) return '-inf';
    return x;
}

function hex(bytes) {
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] === 0) end--;
    return Buffer.from(bytes.subarray(0, end)).toString('hex');
}

function valid(data, i) {
    if (!data.nullCount || !data.nullBitmap || data.nullBitmap.length === 0) return true;
    const k = data.offset + i;
    return ((data.nullBitmap[k >> 3] >> (k & 7)) & 1) === 1;
}

// the raw count of a time column: its values' bytes as int64 or int32
function count(data, i, width) {
    const v = data.values;
    const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
    const k = data.offset + i;
    return width === 8 ? view.getBigInt64(8 * k, true).toString() : String(view.getInt32(4 * k, true));
}

// value i of Data data in the canonical form of arrow_js_expect.py
function canon(data, i) {
    if (!valid(data, i)) return null;
    const t = data.type;
    switch (t.typeId) {
    case Type.Struct:
        return data.children.map((c) => canon(c, data.offset + i));
    case Type.FixedSizeList: {
        const n = t.listSize, out = [];
        for (let j = 0; j < n; j++) out.push(canon(data.children[0], (data.offset + i) * n + j));
        return out;
    }
    case Type.Timestamp:
    case Type.Duration:
        return count(data, i, 8);
    case Type.Date:
        return count(data, i, t.unit === 0 ? 4 : 8);
    default:
        break;
    }
    const v = makeVector(data).get(i);
    switch (t.typeId) {
    case Type.Int:
        return String(v);
    case Type.Float:
        return num(v);
    case Type.Bool:
        return v;
    case Type.Utf8:
        return v;
    case Type.Binary:
    case Type.FixedSizeBinary:
        return hex(v);
    default:
        throw new Error(`unexpected Arrow type ${t}`);
    }
}

let passed = 0, failed = 0;
for (const [name, want] of Object.entries(expected)) {
    try {
        const table = tableFromIPC(readFileSync(join(dir, name + '.arrow')));
        const names = table.schema.fields.map((f) => f.name);
        if (JSON.stringify(names) !== JSON.stringify(want.names))
            throw new Error(`columns ${JSON.stringify(names)}, NumPy's ${JSON.stringify(want.names)}`);
        const rows = [];
        for (const batch of table.batches)
            for (let i = 0; i < batch.numRows; i++)
                rows.push(batch.data.children.map((c) => canon(c, i)));
        if (rows.length !== want.rows.length)
            throw new Error(`${rows.length} rows, NumPy has ${want.rows.length}`);
        for (let r = 0; r < rows.length; r++) {
            const got = JSON.stringify(rows[r]), exp = JSON.stringify(want.rows[r]);
            if (got !== exp) throw new Error(`row ${r}: ${got.slice(0, 300)}, NumPy's ${exp.slice(0, 300)}`);
        }
        passed++;
    } catch (e) {
        failed++;
        console.log(`FAIL arrow_js: ${name}: ${e.message}`);
    }
}
console.log(`arrow_js: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
