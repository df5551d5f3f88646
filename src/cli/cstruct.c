/* npydt cstruct — placeholder until its issue lands; replaced wholesale. */
#include "cli.h"

int cmd_cstruct(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("cstruct: not built yet");
}
