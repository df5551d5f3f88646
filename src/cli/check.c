/* npydt check — placeholder until its issue lands; replaced wholesale. */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("check: not built yet");
}
