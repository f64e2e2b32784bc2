// presage's C API (Debian's libpresage-dev, 0.9.1): presage_new, presage_predict, presage_learn,
// presage_config_set. Only SwitchPredict's child process (`switchscan presage-server`) calls it:
// an abort inside presage must never end the switchscan that scans (docs/typing.md).
#include <presage.h>
