/* npydt pack: an .npz archive of .npy files. */
#ifndef NPYDT_CLI_PACK_H
#define NPYDT_CLI_PACK_H

int cmd_pack(int argc, char **argv);

#endif
