/** @file
 * reach — build configuration: the scalar type, export macros, version.
 *
 * reach_real is float unless REACH_DOUBLE is defined. The CMake option REACH_DOUBLE sets it
 * as a PUBLIC definition, so everything that links reach::reach sees the same type. A program
 * compiled against the other precision fails to link: every translation unit that includes a
 * reach header refers to a symbol whose name carries the precision (see below). */
#ifndef REACH_CONFIG_H
#define REACH_CONFIG_H

#define REACH_VERSION_MAJOR  0
#define REACH_VERSION_MINOR  1
#define REACH_VERSION_PATCH  0
#define REACH_VERSION_STRING "0.1.0"

#ifdef REACH_DOUBLE
typedef double reach_real;
#define REACH_PRECISION_NAME "double"
/** Machine epsilon of reach_real. */
#define REACH_REAL_EPSILON 2.220446049250313e-16
/** The size, relative to its chain, below which a length counts as zero. */
#define REACH_ZERO_LENGTH_RATIO 1e-12
/** A tolerance left at 0 means this fraction of the moving chain's length. */
#define REACH_DEFAULT_TOLERANCE_RATIO 1e-4
#else
/** The library's scalar: float by default, double when built with REACH_DOUBLE. */
typedef float reach_real;
/** "float" or "double". */
#define REACH_PRECISION_NAME          "float"
/** Machine epsilon of reach_real. */
#define REACH_REAL_EPSILON            1.1920929e-07f
/** The size, relative to its chain, below which a length counts as zero. */
#define REACH_ZERO_LENGTH_RATIO       1e-6f
/** A tolerance left at 0 means this fraction of the moving chain's length. */
#define REACH_DEFAULT_TOLERANCE_RATIO 1e-4f
#endif

#ifdef __cplusplus
#define REACH_EXTERN_C_BEGIN extern "C" {
#define REACH_EXTERN_C_END   }
#else
#define REACH_EXTERN_C_BEGIN
#define REACH_EXTERN_C_END
#endif

/** Public functions are exported from a shared build; everything else stays hidden. */
#if defined(_WIN32) && defined(REACH_SHARED)
#ifdef REACH_BUILDING
#define REACH_API __declspec(dllexport)
#else
#define REACH_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define REACH_API __attribute__((visibility("default")))
#else
#define REACH_API
#endif

REACH_EXTERN_C_BEGIN

/** The precision guard. The library defines exactly one of these two symbols. Each translation
 * unit that includes this header keeps a reference to the one it expects, so linking a float
 * program against a double library (or the reverse) fails with an undefined symbol that names
 * the precision. */
#ifdef REACH_DOUBLE
REACH_API extern const int reach_precision_is_double;
#define REACH_PRECISION_GUARD_SYMBOL reach_precision_is_double
#else
REACH_API extern const int reach_precision_is_float;
#define REACH_PRECISION_GUARD_SYMBOL reach_precision_is_float
#endif

#if defined(__GNUC__) && !defined(REACH_BUILDING)
static const int *const reach_precision_guard_ __attribute__((used)) = &REACH_PRECISION_GUARD_SYMBOL;
#endif

/** Run-time queries: the library's version ("0.1.0") and precision ("float" or "double"),
 * and sizeof(reach_real) as the library was built. */
REACH_API const char *reach_version(void);
REACH_API const char *reach_precision(void);
REACH_API int reach_real_size(void);

REACH_EXTERN_C_END

#endif
