/* The zip format's constants (PKWARE APPNOTE 6.3): record signatures, the
 * fixed lengths of records, general purpose flags and the values that say
 * "look in the Zip64 field instead". The reader (zip_directory.c) and the writer
 * (zip_write.c) both use these, so the two cannot disagree on a number. */
#ifndef NPYDT_ZIP_FORMAT_H
#define NPYDT_ZIP_FORMAT_H

/* Record signatures, as little-endian 32-bit words ("PK\3\4" ...). */
#define ZIP_SIG_LOCAL 0x04034b50u      /* local file header */
#define ZIP_SIG_CENTRAL 0x02014b50u    /* central directory entry */
#define ZIP_SIG_DESCRIPTOR 0x08074b50u /* data descriptor (optional signature) */
#define ZIP_SIG_EOCD 0x06054b50u       /* end of central directory record */
#define ZIP_SIG_EOCD64 0x06064b50u     /* Zip64 end of central directory record */
#define ZIP_SIG_LOCATOR64 0x07064b50u  /* Zip64 end of central directory locator */

/* Fixed parts of records, in bytes. */
#define ZIP_LOCAL_LEN 30u          /* local file header without name and extra */
#define ZIP_CENTRAL_LEN 46u        /* central directory entry without name, extra, comment */
#define ZIP_EOCD_LEN 22u           /* end of central directory record without comment */
#define ZIP_EOCD64_LEN 56u         /* Zip64 end record without extensible data */
#define ZIP_EOCD64_SIZE_BASE 12u   /* bytes of the Zip64 end record its size field omits */
#define ZIP_LOCATOR64_LEN 20u      /* Zip64 end of central directory locator */
#define ZIP_DESCRIPTOR_MIN 12u     /* smallest data descriptor: CRC + two 32-bit sizes */
#define ZIP_DESCRIPTOR64_LEN 24u   /* signature, CRC, two 64-bit sizes */
#define ZIP_MAX_COMMENT 65535u     /* an archive comment fits a 16-bit length */

/* The Zip64 extended information extra field. */
#define ZIP64_EXTRA_TAG 0x0001u

/* General purpose bit flags. */
#define ZIP_FLAG_ENCRYPTED 0x0001u
#define ZIP_FLAG_DESCRIPTOR 0x0008u    /* CRC and sizes follow the data */
#define ZIP_FLAG_STRONG_ENCRYPTION 0x0040u
#define ZIP_FLAG_UTF8 0x0800u          /* the name is UTF-8, not CP437 */
#define ZIP_FLAG_MASKED_HEADERS 0x2000u

/* A classic field holding all ones means "see the Zip64 record". */
#define ZIP_SENTINEL16 0xFFFFu
#define ZIP_SENTINEL32 0xFFFFFFFFu

#endif
