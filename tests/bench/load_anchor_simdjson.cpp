// The floor npydt load --jsonl is measured against: simdjson's ondemand
// API (Debian's libsimdjson-dev) over the same lines, iterate_many over
// the whole file read into a padded string, the fields of the 56-byte
// mixed struct tests/bench/load_text.sh writes
//   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
// found in order by key, records written with write(2) in 64 KiB blocks.
// Built only for the bench; nothing of it is in the library or the
// command.
//   load_anchor_simdjson FILE.jsonl > records
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

static unsigned char out[1 << 16];
static size_t out_len;

static void flush_out()
{
    for (size_t done = 0; done < out_len;) {
        ssize_t n = write(STDOUT_FILENO, out + done, out_len - done);
        if (n <= 0)
            std::exit(1);
        done += (size_t)n;
    }
    out_len = 0;
}

template <typename T> static void put(unsigned char *p, T v)
{
    std::memcpy(p, &v, sizeof v);   // the bench runs on little-endian hosts
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: load_anchor_simdjson FILE.jsonl\n");
        return 2;
    }
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[1]).get(json))
        return 1;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document_stream docs;
    if (parser.iterate_many(json).get(docs))
        return 1;
    for (auto doc : docs) {
        simdjson::ondemand::object o;
        if (doc.get_object().get(o))
            return 1;
        unsigned char *r = out + out_len;
        std::memset(r, 0, 56);
        int64_t t = 0, e = 0, f = 0;
        uint64_t id = 0;
        double a = 0, b = 0, c = 0, d = 0;
        std::string_view s;
        if (o.find_field("t").get_int64().get(t) || o.find_field("id").get_uint64().get(id) ||
            o.find_field("a").get_double().get(a) || o.find_field("b").get_double().get(b) ||
            o.find_field("c").get_double().get(c) || o.find_field("d").get_double().get(d) ||
            o.find_field("e").get_int64().get(e) || o.find_field("f").get_int64().get(f) ||
            o.find_field("s").get_string().get(s) || s.size() > 10)
            return 1;
        put(r, t);
        put(r + 8, (uint32_t)id);
        put(r + 12, a);
        put(r + 20, b);
        put(r + 28, (float)c);
        put(r + 32, (float)d);
        put(r + 36, e);
        put(r + 44, (int16_t)f);
        std::memcpy(r + 46, s.data(), s.size());
        out_len += 56;
        if (out_len + 56 > sizeof out)
            flush_out();
    }
    flush_out();
    return 0;
}
