/* npydt swap — placeholder until its issue lands; replaced wholesale. */
#include "cli.h"

int cmd_swap(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("swap: not built yet");
}
