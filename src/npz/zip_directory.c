/* .npz archives, the directory: end records, central directory entries
 * and local headers. Everything an archive declares is checked against
 * everything else before a member can be read: the archive is untrusted
 * input. */
#include "npz/zip.h"
#include "npz/zip_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static npydt_status archive_error(npydt_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static npydt_status archive_error(npydt_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    npydt_status st = set_errorv(err, NPYDT_E_ARCHIVE, NPYDT_NO_OFFSET, NULL, fmt, ap);
    va_end(ap);
    return st;
}

#define ULL(x) ((unsigned long long)(x))

/* ---- Zip64 extra fields ------------------------------------------------- */

/* Replace each value that holds its sentinel by the next 8-byte (the disk
 * number: 4-byte) value of the Zip64 extra field, in the order the format
 * fixes: uncompressed size, compressed size, local header offset, disk.
 * lho and disk are NULL for a local header. Returns NULL or the problem. */
static const char *apply_zip64(const unsigned char *x, size_t len, uint64_t *usize,
                               uint64_t *csize, uint64_t *lho, uint32_t *disk)
{
    bool want_u = *usize == ZIP_SENTINEL32, want_c = *csize == ZIP_SENTINEL32;
    bool want_o = lho && *lho == ZIP_SENTINEL32, want_d = disk && *disk == ZIP_SENTINEL16;
    bool seen = false;
    size_t i = 0;
    while (len - i >= 4) {
        size_t tag = text_load_le16(x + i), sz = text_load_le16(x + i + 2);
        if (sz > len - i - 4)
            return "an extra field runs past the end of the extra data";
        if (tag == ZIP64_EXTRA_TAG) {
            if (seen)
                return "has two Zip64 extra fields";
            seen = true;
            const unsigned char *f = x + i + 4;
            size_t left = sz;
            uint64_t *const vals[3] = {want_u ? usize : NULL, want_c ? csize : NULL,
                                       want_o ? lho : NULL};
            for (int k = 0; k < 3; k++) {
                if (!vals[k])
                    continue;
                if (left < 8)
                    return "its Zip64 extra field is too short for the sizes it stands for";
                *vals[k] = text_load_le64(f);
                f += 8;
                left -= 8;
            }
            if (want_d) {
                if (left < 4)
                    return "its Zip64 extra field is too short for the sizes it stands for";
                *disk = text_load_le32(f);
            }
        }
        i += 4 + sz;
    }
    return NULL;
}

/* ---- end records -------------------------------------------------------- */

struct cd_info {
    uint64_t offset, size, entries;
    uint64_t end;         /* where the central directory must end */
};

/* The end of central directory record: the last signature in the final
 * 65557 bytes (the one Python's zipfile, hence np.load, takes), and its
 * comment must reach exactly to the end of the file. */
static npydt_status find_eocd(const unsigned char *b, uint64_t size, uint64_t *pos,
                              npydt_error *err)
{
    uint64_t lowest = size > ZIP_EOCD_LEN + ZIP_MAX_COMMENT ? size - ZIP_EOCD_LEN - ZIP_MAX_COMMENT : 0;
    for (uint64_t p = size - ZIP_EOCD_LEN;; p--) {
        if (text_load_le32(b + p) == ZIP_SIG_EOCD) {
            uint64_t comment = text_load_le16(b + p + 20);
            if (comment != size - p - ZIP_EOCD_LEN)
                return archive_error(err, "the end of central directory record at %llu "
                                          "declares a %llu-byte comment but %llu bytes follow "
                                          "it (data after the archive, or a signature inside "
                                          "its comment)",
                                     ULL(p), ULL(comment), ULL(size - p - ZIP_EOCD_LEN));
            *pos = p;
            return NPYDT_OK;
        }
        if (p == lowest)
            return archive_error(err, "no end of central directory record in the last 65557 "
                                      "bytes: not a zip archive, or truncated");
    }
}

/* A 32-bit (or 16-bit) field of the classic record must agree with the
 * Zip64 record unless it holds the sentinel that defers to it. */
static bool agrees(uint64_t classic, uint64_t sentinel, uint64_t wide)
{
    return classic == sentinel || classic == wide;
}

static npydt_status read_end_records(const struct npydt_npz *z, struct cd_info *cd,
                                     npydt_error *err)
{
    const unsigned char *b = z->base;
    if (z->size < ZIP_EOCD_LEN)
        return archive_error(err, "not a zip archive: %llu bytes is shorter than the "
                                  "22-byte end of central directory record",
                             ULL(z->size));
    uint64_t eocd = 0;
    npydt_status st = find_eocd(b, z->size, &eocd, err);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *e = b + eocd;
    uint64_t disk = text_load_le16(e + 4), cd_disk = text_load_le16(e + 6);
    uint64_t n_disk = text_load_le16(e + 8), n_total = text_load_le16(e + 10);
    uint64_t cd_size = text_load_le32(e + 12), cd_off = text_load_le32(e + 16);
    uint64_t cd_end = eocd;
    if (eocd >= ZIP_LOCATOR64_LEN && text_load_le32(b + eocd - ZIP_LOCATOR64_LEN) == ZIP_SIG_LOCATOR64) {
        uint64_t loc = eocd - ZIP_LOCATOR64_LEN;
        uint64_t rec = text_load_le64(b + loc + 8);
        uint32_t loc_disk = text_load_le32(b + loc + 4), ndisks = text_load_le32(b + loc + 16);
        if (loc_disk != 0 || ndisks > 1)
            return archive_error(err, "the Zip64 locator names disk %u of %u: multi-disk "
                                      "archives are not supported",
                                 loc_disk, ndisks);
        /* The locator's signature may be the last bytes of a member's name
         * in an archive without Zip64 end records; Python's zipfile then
         * reads the classic record alone, and so do we when that record
         * defers nothing to a Zip64 one. */
        bool has_record = rec <= loc && loc - rec >= ZIP_EOCD64_LEN &&
                          text_load_le32(b + rec) == ZIP_SIG_EOCD64;
        bool classic_complete = disk != ZIP_SENTINEL16 && cd_disk != ZIP_SENTINEL16 &&
                                n_disk != ZIP_SENTINEL16 && n_total != ZIP_SENTINEL16 &&
                                cd_size != ZIP_SENTINEL32 && cd_off != ZIP_SENTINEL32;
        if (!has_record && classic_complete)
            goto classic;
        if (rec > loc || loc - rec < ZIP_EOCD64_LEN)
            return archive_error(err, "the Zip64 end record offset %llu is out of range "
                                      "(the locator is at %llu)",
                                 ULL(rec), ULL(loc));
        const unsigned char *r = b + rec;
        if (text_load_le32(r) != ZIP_SIG_EOCD64)
            return archive_error(err, "no Zip64 end record at offset %llu where the "
                                      "locator points",
                                 ULL(rec));
        uint64_t rsize = text_load_le64(r + 4);
        if (rsize != loc - rec - ZIP_EOCD64_SIZE_BASE)
            return archive_error(err, "the Zip64 end record at %llu declares %llu bytes but "
                                      "%llu lie before the locator",
                                 ULL(rec), ULL(rsize), ULL(loc - rec - ZIP_EOCD64_SIZE_BASE));
        uint64_t disk64 = text_load_le32(r + 16), cd_disk64 = text_load_le32(r + 20);
        uint64_t n_disk64 = text_load_le64(r + 24), n_total64 = text_load_le64(r + 32);
        uint64_t cd_size64 = text_load_le64(r + 40), cd_off64 = text_load_le64(r + 48);
        if (!agrees(disk, ZIP_SENTINEL16, disk64) || !agrees(cd_disk, ZIP_SENTINEL16, cd_disk64) ||
            !agrees(n_disk, ZIP_SENTINEL16, n_disk64) || !agrees(n_total, ZIP_SENTINEL16, n_total64) ||
            !agrees(cd_size, ZIP_SENTINEL32, cd_size64) || !agrees(cd_off, ZIP_SENTINEL32, cd_off64))
            return archive_error(err, "the end of central directory record and the Zip64 end "
                                      "record disagree (%llu entries, %llu bytes at %llu "
                                      "against %llu entries, %llu bytes at %llu)",
                                 ULL(n_total), ULL(cd_size), ULL(cd_off), ULL(n_total64),
                                 ULL(cd_size64), ULL(cd_off64));
        disk = disk64;
        cd_disk = cd_disk64;
        n_disk = n_disk64;
        n_total = n_total64;
        cd_size = cd_size64;
        cd_off = cd_off64;
        cd_end = rec;
    }
classic:
    if (disk != 0 || cd_disk != 0)
        return archive_error(err, "the central directory is on disk %llu of a multi-disk "
                                  "archive: not supported",
                             ULL(cd_disk));
    if (n_disk != n_total)
        return archive_error(err, "the end record counts %llu entries on this disk but %llu "
                                  "in total",
                             ULL(n_disk), ULL(n_total));
    if (n_total > z->opts.max_members)
        return archive_error(err, "the archive has %llu members, more than the limit of %llu "
                                  "(max_members)",
                             ULL(n_total), ULL(z->opts.max_members));
    if (cd_off > cd_end || cd_size != cd_end - cd_off)
        return archive_error(err, "the central directory (%llu bytes at offset %llu) does not "
                                  "end where the end record starts (%llu): truncated, or "
                                  "data before or after it",
                             ULL(cd_size), ULL(cd_off), ULL(cd_end));
    if (n_total > cd_size / ZIP_CENTRAL_LEN)
        return archive_error(err, "the central directory of %llu bytes cannot hold the %llu "
                                  "entries the end record counts: truncated",
                             ULL(cd_size), ULL(n_total));
    cd->offset = cd_off;
    cd->size = cd_size;
    cd->entries = n_total;
    cd->end = cd_end;
    return NPYDT_OK;
}

/* ---- central directory and local headers ------------------------------- */

/* The extent a member claims in the archive, for the overlap check. */
struct extent {
    uint64_t start, end;
    size_t index;
};

/* Check member m's local header at its offset against the central entry
 * (raw name bytes given) and set its data offset; *end is the end of its
 * data plus room for a data descriptor when it has one. */
static npydt_status check_local(const struct npydt_npz *z, npydt_npz_member *m,
                                const unsigned char *raw_name, size_t name_len,
                                uint64_t cd_off, uint64_t *end, npydt_error *err)
{
    uint64_t lho = m->local_header_offset;
    if (lho > cd_off || cd_off - lho < ZIP_LOCAL_LEN)
        return zip_member_error(err, m->name, "its local header offset %llu is not before "
                                              "the central directory (at %llu)",
                                ULL(lho), ULL(cd_off));
    const unsigned char *l = z->base + lho;
    if (text_load_le32(l) != ZIP_SIG_LOCAL)
        return zip_member_error(err, m->name, "no local header signature at offset %llu",
                                ULL(lho));
    uint16_t lflags = text_load_le16(l + 6), lmethod = text_load_le16(l + 8);
    uint64_t lcrc = text_load_le32(l + 14), lcsize = text_load_le32(l + 18), lusize = text_load_le32(l + 22);
    size_t lnlen = text_load_le16(l + 26), lxlen = text_load_le16(l + 28);
    uint64_t data;
    if (!ck_add(lho, ZIP_LOCAL_LEN + lnlen + lxlen, &data) || data > cd_off)
        return zip_member_error(err, m->name, "its local header at %llu runs into the "
                                              "central directory (at %llu)",
                                ULL(lho), ULL(cd_off));
    if (lnlen != name_len || memcmp(l + ZIP_LOCAL_LEN, raw_name, name_len) != 0)
        return zip_member_error(err, m->name, "the local header at %llu names another "
                                              "file than the central directory",
                                ULL(lho));
    if (lmethod != m->method)
        return zip_member_error(err, m->name, "the local header says method %u but the "
                                              "central directory %u",
                                lmethod, (unsigned)m->method);
    if (lflags & (ZIP_FLAG_ENCRYPTED | ZIP_FLAG_STRONG_ENCRYPTION))
        return zip_member_error(err, m->name, "is encrypted (local header flags 0x%04x)",
                                lflags);
    if (!(lflags & ZIP_FLAG_DESCRIPTOR)) {
        const char *why = apply_zip64(l + ZIP_LOCAL_LEN + lnlen, lxlen, &lusize, &lcsize, NULL, NULL);
        if (why)
            return zip_member_error(err, m->name, "local header: %s", why);
        if (lcrc != m->crc32 || lcsize != m->compressed_size || lusize != m->uncompressed_size)
            return zip_member_error(
                err, m->name,
                "the local header declares CRC %08llx, %llu bytes compressed, %llu "
                "uncompressed; the central directory %08llx, %llu, %llu",
                ULL(lcrc), ULL(lcsize), ULL(lusize), ULL(m->crc32), ULL(m->compressed_size),
                ULL(m->uncompressed_size));
    }
    uint64_t data_end, claim;
    if (!ck_add(data, m->compressed_size, &data_end) || data_end > cd_off ||
        !ck_add(data_end, (lflags & ZIP_FLAG_DESCRIPTOR) ? ZIP_DESCRIPTOR_MIN : 0, &claim) ||
        claim > cd_off)
        return zip_member_error(err, m->name, "its %llu bytes of data at offset %llu run past "
                                              "the start of the central directory (at %llu)",
                                ULL(m->compressed_size), ULL(data), ULL(cd_off));
    m->data_offset = data;
    *end = claim;
    return NPYDT_OK;
}

/* Parse one central directory entry at *pos (advanced past it). */
static npydt_status parse_entry(struct npydt_npz *z, size_t i, const struct cd_info *cd,
                                uint64_t *pos, size_t *names_used, uint64_t *inflated,
                                struct extent *ext, npydt_error *err)
{
    const unsigned char *b = z->base;
    uint64_t p = *pos;
    if (cd->end - p < ZIP_CENTRAL_LEN)
        return archive_error(err, "the central directory is truncated in entry %zu of %llu",
                             i + 1, ULL(cd->entries));
    const unsigned char *c = b + p;
    if (text_load_le32(c) != ZIP_SIG_CENTRAL)
        return archive_error(err, "central directory entry %zu of %llu (offset %llu) has no "
                                  "entry signature",
                             i + 1, ULL(cd->entries), ULL(p));
    uint16_t flags = text_load_le16(c + 8), method = text_load_le16(c + 10);
    uint64_t crc = text_load_le32(c + 16), csize = text_load_le32(c + 20), usize = text_load_le32(c + 24);
    size_t nlen = text_load_le16(c + 28), xlen = text_load_le16(c + 30), clen = text_load_le16(c + 32);
    uint32_t disk = text_load_le16(c + 34);
    uint64_t lho = text_load_le32(c + 42);
    if (cd->end - p - ZIP_CENTRAL_LEN < (uint64_t)nlen + xlen + clen)
        return archive_error(err, "the central directory is truncated in entry %zu of %llu "
                                  "(its name, extra field and comment run past its end)",
                             i + 1, ULL(cd->entries));
    const unsigned char *raw = c + ZIP_CENTRAL_LEN;
    npydt_npz_member *m = &z->members[i];
    char *name = z->names + *names_used;
    size_t len;
    const char *why = zip_decode_name(raw, nlen, flags & ZIP_FLAG_UTF8, name, &len);
    if (why) {
        char quoted[128];
        zip_quote_raw(quoted, sizeof quoted, raw, nlen);
        return archive_error(err, "member %s: entry %zu %s", quoted, i + 1, why);
    }
    *names_used += len + 1;
    m->name = name;
    why = apply_zip64(raw + nlen, xlen, &usize, &csize, &lho, &disk);
    if (why)
        return zip_member_error(err, name, "%s", why);
    if (disk != 0)
        return zip_member_error(err, name, "starts on disk %u: multi-disk archives are not "
                                           "supported",
                                disk);
    if (flags & (ZIP_FLAG_ENCRYPTED | ZIP_FLAG_STRONG_ENCRYPTION | ZIP_FLAG_MASKED_HEADERS))
        return zip_member_error(err, name, "is encrypted (flags 0x%04x): not supported", flags);
    if (method != NPYDT_NPZ_STORED && method != NPYDT_NPZ_DEFLATED)
        return zip_member_error(err, name, "uses compression method %u: only stored (0) and "
                                           "deflate (8) are supported",
                                method);
    m->method = (npydt_npz_method)method;
    m->flags = flags;
    m->crc32 = (uint32_t)crc;
    m->compressed_size = csize;
    m->uncompressed_size = usize;
    m->local_header_offset = lho;
    if (method == NPYDT_NPZ_STORED && csize != usize)
        return zip_member_error(err, name, "is stored but declares %llu bytes compressed and "
                                           "%llu uncompressed",
                                ULL(csize), ULL(usize));
    if (method == NPYDT_NPZ_DEFLATED) {
        uint64_t most;
        if (ck_mul(csize, z->opts.max_ratio, &most) && usize > most)
            return zip_member_error(err, name, "declares %llu bytes inflated from %llu "
                                               "compressed, a ratio above the limit of %lu "
                                               "(max_ratio): a zip bomb or a lie",
                                    ULL(usize), ULL(csize), (unsigned long)z->opts.max_ratio);
        if (!ck_add(*inflated, usize, inflated) || *inflated > z->opts.max_inflated_bytes)
            return zip_member_error(err, name, "brings the declared inflated size of the "
                                               "archive above the limit of %llu bytes "
                                               "(max_inflated_bytes): a zip bomb?",
                                    ULL(z->opts.max_inflated_bytes));
    }
    uint64_t end = 0;
    npydt_status st = check_local(z, m, raw, nlen, cd->offset, &end, err);
    if (st != NPYDT_OK)
        return st;
    ext->start = lho;
    ext->end = end;
    ext->index = i;
    *pos = p + ZIP_CENTRAL_LEN + nlen + xlen + clen;
    return NPYDT_OK;
}

static int cmp_extent(const void *a, const void *b)
{
    const struct extent *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_name(const void *a, const void *b)
{
    const npydt_npz_member *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

/* Overlaps between members (and, through check_local, with the central
 * directory) and duplicate names. */
static npydt_status check_members(struct npydt_npz *z, struct extent *ext, npydt_error *err)
{
    size_t n = z->count;
    if (n < 2)
        return NPYDT_OK;
    qsort(ext, n, sizeof *ext, cmp_extent);
    for (size_t i = 1; i < n; i++)
        if (ext[i].start < ext[i - 1].end) {
            const char *a = z->members[ext[i - 1].index].name;
            char quoted[128];
            zip_quote_name(quoted, sizeof quoted, z->members[ext[i].index].name);
            return zip_member_error(err, a, "overlaps member %s (its bytes end at %llu, the "
                                            "other's local header starts at %llu)",
                                    quoted, ULL(ext[i - 1].end), ULL(ext[i].start));
        }
    /* reuse the extents' memory for the sorted names */
    const npydt_npz_member **by_name = (const npydt_npz_member **)(void *)ext;
    _Static_assert(sizeof(struct extent) >= sizeof(npydt_npz_member *), "room for pointers");
    for (size_t i = 0; i < n; i++)
        by_name[i] = &z->members[i];
    qsort(by_name, n, sizeof *by_name, cmp_name);
    for (size_t i = 1; i < n; i++)
        if (strcmp(by_name[i]->name, by_name[i - 1]->name) == 0)
            return zip_member_error(err, by_name[i]->name, "the name appears twice in the "
                                                           "central directory");
    return NPYDT_OK;
}

npydt_status zip_parse_archive(struct npydt_npz *z, npydt_error *err)
{
    struct cd_info cd = {0, 0, 0, 0};
    npydt_status st = read_end_records(z, &cd, err);
    if (st != NPYDT_OK)
        return st;
    const npydt_allocator *a = z->opts.base.allocator;
    /* every size below is bounded by the central directory's bytes:
     * entries <= size / 46, names decode to at most 3 bytes per byte */
    size_t n = (size_t)cd.entries;
    uint64_t names_size, members_size, ext_size;
    if (!ck_mul(cd.size, 3, &names_size) || !ck_add(names_size, n + 1, &names_size) ||
        names_size > SIZE_MAX || !ck_mul(n, sizeof *z->members, &members_size) ||
        members_size > SIZE_MAX || !ck_mul(n, sizeof(struct extent), &ext_size) ||
        ext_size > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "the central directory is too large for this machine");
    /* (the allocator never sees a request for 0 bytes: sizes are passed
     * back to it on release) */
    z->names = alloc_bytes(a, (size_t)names_size);
    z->names_size = (size_t)names_size;
    if (!z->names)
        return set_nomem(err);
    if (n == 0)
        return cd.size == 0 ? NPYDT_OK
                            : archive_error(err, "the central directory has %llu bytes but "
                                                 "no entries",
                                            ULL(cd.size));
    z->members = alloc_bytes(a, (size_t)members_size);
    z->members_size = (size_t)members_size;
    struct extent *ext = alloc_bytes(a, (size_t)ext_size);
    if (!z->members || !ext) {
        free_bytes(a, ext, (size_t)ext_size);
        return set_nomem(err);
    }
    memset(z->members, 0, (size_t)members_size);
    uint64_t pos = cd.offset, inflated = 0;
    size_t names_used = 0;
    for (size_t i = 0; i < n; i++) {
        st = parse_entry(z, i, &cd, &pos, &names_used, &inflated, &ext[i], err);
        if (st != NPYDT_OK)
            goto out;
        z->count = i + 1;
    }
    if (pos != cd.end) {
        st = archive_error(err, "the central directory has %llu bytes after its last entry "
                                "(%llu entries declared)",
                           ULL(cd.end - pos), ULL(cd.entries));
        goto out;
    }
    st = check_members(z, ext, err);
out:
    free_bytes(a, ext, (size_t)ext_size);
    return st;
}
