/* npydt dump — placeholder until its issue lands; replaced wholesale. */
#include "cli.h"

int cmd_dump(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("dump: not built yet");
}
