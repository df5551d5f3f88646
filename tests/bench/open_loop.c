/* The floor npydt check over many small files is measured against: each
 * FILE opened, its first 4 KiB read, its size taken (fstat) and closed,
 * nothing parsed. Prints the bytes read and the sizes added up, so that
 * no call can be left out.
 *
 *   open_loop FILE...   prints "BYTES SIZES" */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    uint64_t bytes = 0, sizes = 0;
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            perror(argv[i]);
            return 2;
        }
        ssize_t n = read(fd, buf, sizeof buf);
        struct stat st;
        if (n < 0 || fstat(fd, &st) != 0) {
            perror(argv[i]);
            close(fd);
            return 2;
        }
        bytes += (uint64_t)n + buf[0];
        sizes += (uint64_t)st.st_size;
        close(fd);
    }
    printf("%llu %llu\n", (unsigned long long)bytes, (unsigned long long)sizes);
    return 0;
}
