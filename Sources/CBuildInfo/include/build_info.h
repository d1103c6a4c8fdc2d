// build_info.h: what this binary was built from, for `frontdoor --version` and the frontdoor_build_info metric.
// The values are C macros set by Package.swift from the environment of the build (FRONTDOOR_VERSION,
// FRONTDOOR_COMMIT, FRONTDOOR_BUILD_DATE; scripts/dist sets them); a plain `swift build` has none and says "unknown".
// Swift's own conditional compilation flags carry no values, hence this one small C target.
#ifndef FRONTDOOR_BUILD_INFO_H
#define FRONTDOOR_BUILD_INFO_H

const char *frontdoor_build_version(void);
const char *frontdoor_build_commit(void);
const char *frontdoor_build_date(void);

#endif
