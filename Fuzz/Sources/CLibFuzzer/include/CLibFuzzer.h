// libFuzzer's entry for a program that has its own main (SwiftPM links every executable with
// main = <target>_main, so libFuzzer's main is not the one that runs).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
