// build_info.c: the three strings of build_info.h, "unknown" where the build did not set them.
#include "build_info.h"

#ifndef FRONTDOOR_VERSION
#define FRONTDOOR_VERSION "unknown"
#endif
#ifndef FRONTDOOR_COMMIT
#define FRONTDOOR_COMMIT "unknown"
#endif
#ifndef FRONTDOOR_BUILD_DATE
#define FRONTDOOR_BUILD_DATE "unknown"
#endif

const char *frontdoor_build_version(void) { return FRONTDOOR_VERSION; }
const char *frontdoor_build_commit(void) { return FRONTDOOR_COMMIT; }
const char *frontdoor_build_date(void) { return FRONTDOOR_BUILD_DATE; }
