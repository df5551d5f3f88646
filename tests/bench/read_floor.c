/* The floor npydt stats is measured against: one read-only pass over the
 * data of a .npy file, mapped as the command maps it, adding up its
 * 8-byte words (the tail bytes too) so that every byte is loaded and the
 * loop cannot be left out. No dtype, no conversion, nothing kept.
 *
 *   read_floor FILE.npy   prints the sum */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: read_floor FILE.npy\n", stderr);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 12) {
        perror(argv[1]);
        return 2;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    /* the preamble: magic, version, HEADER_LEN of 2 (1.0) or 4 bytes */
    size_t start = p[6] == 1 ? 10 + (size_t)(p[8] | p[9] << 8)
                             : 12 + (size_t)(p[8] | p[9] << 8 | p[10] << 16 | (uint32_t)p[11] << 24);
    posix_madvise((void *)p, size, POSIX_MADV_SEQUENTIAL);
    uint64_t s[4] = {0, 0, 0, 0};
    size_t i = start;
    for (; i + 32 <= size; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * k, 8);
            s[k] += w;
        }
    for (; i < size; i++)
        s[0] += p[i];
    printf("%llu\n", (unsigned long long)(s[0] + s[1] + s[2] + s[3]));
    return 0;
}
