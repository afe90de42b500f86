/* Version and precision queries, and the precision guard symbol (see reach/config.h). */
#include "reach/config.h"

#ifdef REACH_DOUBLE
const int reach_precision_is_double = 1;
#else
const int reach_precision_is_float = 1;
#endif

const char *reach_version(void) { return REACH_VERSION_STRING; }
const char *reach_precision(void) { return REACH_PRECISION_NAME; }
int reach_real_size(void) { return (int)sizeof(reach_real); }
