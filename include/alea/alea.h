/* alea/alea.h — the C API of alea, a dice-and-rules language for tabletop games.
 *
 * C99, for C programs and for any language's foreign-function interface. Link with -lalea
 * (pkg-config alea, or find_package(alea) and the target alea::alea).
 *
 *   alea_engine* engine = NULL;
 *   alea_result* roll = NULL;
 *   alea_error* error = NULL;
 *   alea_run_options* options = alea_run_options_new();
 *   alea_run_options_set_seed(options, 42);
 *   if (alea_engine_new(NULL, &engine, &error) == ALEA_OK &&
 *       alea_roll(engine, "4d6kh3", options, &roll, &error) == ALEA_OK) {
 *     int64_t total = 0;
 *     alea_value_int(alea_result_value(roll), &total);
 *     printf("%s\n", alea_result_text(roll));          (4d6kh3 → 5 3 3 ~2~ = 11)
 *   } else {
 *     fprintf(stderr, "%s", alea_error_text(error));   (the message, with its place)
 *   }
 *   alea_result_free(roll);
 *   alea_error_free(error);
 *   alea_run_options_free(options);
 *   alea_engine_free(engine);
 *
 * Conventions, for every function:
 * - A call that can fail returns an alea_status. On failure, when `error` is not NULL, *error
 *   receives an alea_error that the caller frees with alea_error_free; the out-parameters are
 *   left as they were. No C++ exception ever leaves a call.
 * - Handles are opaque. Each *_new or out-parameter handle is the caller's, freed by the
 *   matching *_free, which accepts NULL. A `const char*` or `const alea_value*` read from a
 *   handle lives as long as that handle. A `char*` returned through an out-parameter is the
 *   caller's, freed with alea_string_free.
 * - Strings are UTF-8 and NUL-terminated.
 * - alea_compile, alea_run, alea_roll and alea_stats_run may be called on one engine from many
 *   threads at once, and a ruleset may be loaded meanwhile: each call sees the rulesets as they
 *   were when it began, a program keeps those it was compiled against. Every other handle
 *   belongs to one thread at a time.
 * - Every run is bounded by the engine's limits (alea_limits_set; `alea limits` lists them) and
 *   may be stopped through an alea_cancel.
 */
#ifndef ALEA_ALEA_H
#define ALEA_ALEA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ALEA_API __attribute__((visibility("default")))
#else
#define ALEA_API
#endif

/* The version of the library these declarations come from; alea_version() is the one linked. */
#define ALEA_VERSION_MAJOR 0
#define ALEA_VERSION_MINOR 2
#define ALEA_VERSION_PATCH 0
/* Raised on any change to this header that breaks a program built against an earlier one. */
#define ALEA_ABI_VERSION 1

/* "0.2.0": the version of the library linked. */
ALEA_API const char* alea_version(void);
/* ALEA_ABI_VERSION of the library linked: a host compares it with the header's. */
ALEA_API int alea_abi_version(void);

typedef enum alea_status {
  ALEA_OK = 0,
  ALEA_ERROR_INPUT = 1,  /* the input was refused (a syntax error, a limit, a bad state…) */
  ALEA_ERROR_USAGE = 2,  /* the call itself was wrong: a NULL handle, an unknown limit… */
  ALEA_ERROR_MEMORY = 3, /* memory ran out */
  ALEA_ERROR_INTERNAL = 4 /* a fault in alea: please report it, with the error's text */
} alea_status;

typedef struct alea_error alea_error;
typedef struct alea_limits alea_limits;
typedef struct alea_engine alea_engine;
typedef struct alea_program alea_program;
typedef struct alea_run_options alea_run_options;
typedef struct alea_cancel alea_cancel;
typedef struct alea_state alea_state;
typedef struct alea_result alea_result;
typedef struct alea_value alea_value;
typedef struct alea_stats alea_stats;

ALEA_API void alea_string_free(char* text);

/* ---- errors ---------------------------------------------------------------------------- */

ALEA_API alea_status alea_error_status(const alea_error* error);
/* The diagnostic's code, as alea prints it: "UnknownName", "StepLimitExceeded"; for a usage
 * error "InvalidArgument", for the others "OutOfMemory" or "Internal". */
ALEA_API const char* alea_error_code(const alea_error* error);
/* The message alone, lower case, no place: "unknown name 'd'". */
ALEA_API const char* alea_error_message(const alea_error* error);
/* Where it is: the file (or "<input>") and 1-based line and column; "" and 0 when it has no
 * place. */
ALEA_API const char* alea_error_file(const alea_error* error);
ALEA_API int alea_error_line(const alea_error* error);
ALEA_API int alea_error_column(const alea_error* error);
/* The whole error as the command line prints it: place, message, the source line with a caret,
 * and its notes; ends with a newline. */
ALEA_API const char* alea_error_text(const alea_error* error);
/* The error as a JSON object, as alea's documents hold one (docs/json.md): {"code", "message",
 * "location", "notes", "rendered"}. */
ALEA_API const char* alea_error_json(const alea_error* error);
ALEA_API void alea_error_free(alea_error* error);

/* ---- limits and engines ---------------------------------------------------------------- */

/* Every limit at its default. */
ALEA_API alea_limits* alea_limits_new(void);
ALEA_API void alea_limits_free(alea_limits* limits);
/* Sets one limit by name ("max_steps"); an unknown name or a negative value is a usage error. */
ALEA_API alea_status alea_limits_set(alea_limits* limits, const char* name, int64_t value, alea_error** error);
ALEA_API alea_status alea_limits_get(const alea_limits* limits, const char* name, int64_t* value,
                                     alea_error** error);

/* A new engine with these limits (NULL: the defaults) and the standard library. */
ALEA_API alea_status alea_engine_new(const alea_limits* limits, alea_engine** engine, alea_error** error);
ALEA_API void alea_engine_free(alea_engine* engine);
/* Loads the ruleset `name` ("heroes-mythos"): from the first of `dirs` (count of them; may be
 * NULL), $ALEA_PATH, then the rulesets installed with alea, that has NAME.yaml. Its mechanics
 * become callable as ident.mechanic (heroes_mythos.check). On error nothing is loaded. */
ALEA_API alea_status alea_engine_load_ruleset(alea_engine* engine, const char* name, const char* const* dirs,
                                              size_t count, alea_error** error);
ALEA_API alea_status alea_engine_load_ruleset_file(alea_engine* engine, const char* path, alea_error** error);
/* A ruleset from YAML text; `shown_as` names it in errors. */
ALEA_API alea_status alea_engine_load_ruleset_text(alea_engine* engine, const char* yaml, const char* shown_as,
                                                   alea_error** error);

/* ---- programs, options, runs ----------------------------------------------------------- */

/* Parses and resolves `source`; `name` (NULL: "<input>") is shown in errors. */
ALEA_API alea_status alea_compile(const alea_engine* engine, const char* source, const char* name,
                                  alea_program** program, alea_error** error);
ALEA_API void alea_program_free(alea_program* program);

/* A flag that stops the runs given it: set from any thread, or from a signal handler. A run
 * stopped ends with an "Interrupted" error; sampling stops with the samples taken. */
ALEA_API alea_cancel* alea_cancel_new(void);
ALEA_API void alea_cancel_set(alea_cancel* cancel);
ALEA_API void alea_cancel_reset(alea_cancel* cancel);
ALEA_API void alea_cancel_free(alea_cancel* cancel);

/* What one run or one odds computation is given. Defaults: a fresh random seed, no scripted
 * dice, no state, all cores, no cancel. The options keep no pointer to the arrays given; they
 * keep the state and the cancel flag given, which must outlive the calls that use them. */
ALEA_API alea_run_options* alea_run_options_new(void);
ALEA_API void alea_run_options_free(alea_run_options* options);
ALEA_API void alea_run_options_set_seed(alea_run_options* options, uint64_t seed);
/* The faces the dice show, in the order they are rolled (a roll only). A run that leaves some
 * unused, or needs more, is an error. */
ALEA_API alea_status alea_run_options_set_dice(alea_run_options* options, const int64_t* faces, size_t count,
                                               alea_error** error);
/* The rulesets' state the run reads (a roll only); NULL: every counter at its default. */
ALEA_API void alea_run_options_set_state(alea_run_options* options, const alea_state* state);
/* Threads that sample (stats only); 0: every core. */
ALEA_API void alea_run_options_set_threads(alea_run_options* options, unsigned threads);
/* Samples to draw when the odds are sampled (stats only); 0: the default, 100,000. */
ALEA_API void alea_run_options_set_samples(alea_run_options* options, uint64_t samples);
/* 1: fail rather than sample when no exact answer can be had (stats only). */
ALEA_API void alea_run_options_set_exact_only(alea_run_options* options, int exact_only);
/* Seconds the exact attempt may take before sampling (stats only): more than 0, at most a year
 * (31,536,000). Unset: 1.5, or no limit with exact_only (then it fails past the limit). */
ALEA_API alea_status alea_run_options_set_time_limit(alea_run_options* options, double seconds, alea_error** error);
ALEA_API void alea_run_options_set_cancel(alea_run_options* options, const alea_cancel* cancel);

/* Runs a compiled program (options may be NULL: the defaults). */
ALEA_API alea_status alea_run(const alea_engine* engine, const alea_program* program,
                              const alea_run_options* options, alea_result** result, alea_error** error);
/* alea_compile, then alea_run. */
ALEA_API alea_status alea_roll(const alea_engine* engine, const char* source, const alea_run_options* options,
                               alea_result** result, alea_error** error);
ALEA_API void alea_result_free(alea_result* result);

/* The value; NULL when the program gave none (it only defines functions). */
ALEA_API const alea_value* alea_result_value(const alea_result* result);
/* The dice and the result as the command line prints them: "4d6kh3 → 4 4 6 ~3~ = 14". */
ALEA_API const char* alea_result_text(const alea_result* result);
/* The roll as one JSON document, alea.roll/1 (docs/json.md): value, every die with its fate,
 * events. */
ALEA_API const char* alea_result_json(const alea_result* result);
/* The dice rolled, in order: each one's face, die ("d6", "dF") and fate ("kept", "dropped",
 * "rerolled", "cancelled", "failed", "added"). */
ALEA_API size_t alea_result_dice_count(const alea_result* result);
ALEA_API int64_t alea_result_die_face(const alea_result* result, size_t index);
ALEA_API const char* alea_result_die_kind(const alea_result* result, size_t index);
ALEA_API const char* alea_result_die_fate(const alea_result* result, size_t index);
/* The state after the run: the one given with the run's changes. */
ALEA_API const alea_state* alea_result_state(const alea_result* result);

/* ---- values ------------------------------------------------------------------------------ */

typedef enum alea_kind {
  ALEA_KIND_INT,
  ALEA_KIND_BOOL,
  ALEA_KIND_STRING,
  ALEA_KIND_POOL,   /* dice kept together; counted as their total */
  ALEA_KIND_LIST,
  ALEA_KIND_RECORD,
  ALEA_KIND_NONE
} alea_kind;

ALEA_API alea_kind alea_value_kind(const alea_value* value);
/* An integer, or a pool's total. Another kind is a usage error. */
ALEA_API alea_status alea_value_int(const alea_value* value, int64_t* out);
ALEA_API alea_status alea_value_bool(const alea_value* value, int* out);
/* A string's bytes (NUL-terminated; `length` may be NULL); NULL for another kind. */
ALEA_API const char* alea_value_string(const alea_value* value, size_t* length);
/* The items of a list, the fields of a record, the dice of a pool; 0 for another kind. */
ALEA_API size_t alea_value_count(const alea_value* value);
/* The index-th item of a list or field of a record; NULL past the end or for another kind. */
ALEA_API const alea_value* alea_value_item(const alea_value* value, size_t index);
/* The index-th field's name of a record; NULL past the end or for another kind. */
ALEA_API const char* alea_value_field_name(const alea_value* value, size_t index);
/* A record's field by name; NULL when it has none. */
ALEA_API const alea_value* alea_value_field(const alea_value* value, const char* name);
/* The value as JSON (a pool as its total); the caller frees it with alea_string_free. */
ALEA_API alea_status alea_value_json(const alea_value* value, char** json, alea_error** error);

/* ---- odds ---------------------------------------------------------------------------------- */

/* How the program's value is distributed: exactly when it can be, else by sampling (seed,
 * samples and threads from the options). */
ALEA_API alea_status alea_stats_run(const alea_engine* engine, const alea_program* program,
                                    const alea_run_options* options, alea_stats** stats, alea_error** error);
ALEA_API void alea_stats_free(alea_stats* stats);
/* 1 when every probability is exact, 0 when sampled. */
ALEA_API int alea_stats_exact(const alea_stats* stats);
/* The runs enumerated, or the samples drawn. */
ALEA_API uint64_t alea_stats_runs(const alea_stats* stats);
/* Distributions: 0 is the value's; 1… are a record value's fields, in order. */
ALEA_API size_t alea_stats_distribution_count(const alea_stats* stats);
/* "" for the value's, else the field's name; NULL past the end. */
ALEA_API const char* alea_stats_distribution_name(const alea_stats* stats, size_t distribution);
ALEA_API size_t alea_stats_entry_count(const alea_stats* stats, size_t distribution);
ALEA_API const alea_value* alea_stats_entry_value(const alea_stats* stats, size_t distribution, size_t entry);
/* The probability as a fraction in lowest terms, "287/432"; "" when sampled; NULL past the end. */
ALEA_API const char* alea_stats_entry_fraction(const alea_stats* stats, size_t distribution, size_t entry);
ALEA_API double alea_stats_entry_probability(const alea_stats* stats, size_t distribution, size_t entry);
/* The probability of the runs that gave no value (explosion chains cut off, errors), as a
 * fraction ("0/1" when none), or "" when sampled. */
ALEA_API const char* alea_stats_unresolved_fraction(const alea_stats* stats);
/* The distribution as one JSON document, alea.stats/1 (docs/json.md): a distribution too long for
 * the engine's max_render_size lists its most likely values and says in "left_out" what it leaves
 * out; NULL when the document would pass the limit even so. */
ALEA_API const char* alea_stats_json(const alea_stats* stats);

/* ---- state ----------------------------------------------------------------------------------- */

/* The rulesets' counters kept between rolls (a character's state), from JSON text:
 * {"ruleset": {"counter": value, …}, …}. `name` (NULL: "<state>") is shown in errors. */
ALEA_API alea_status alea_state_from_json(const char* json, const char* name, alea_state** state,
                                          alea_error** error);
/* The problems of a state for the rulesets the engine has loaded (a counter it does not
 * declare, a value out of range): ALEA_ERROR_INPUT with the first, or ALEA_OK. */
ALEA_API alea_status alea_state_check(const alea_engine* engine, const alea_state* state, alea_error** error);
ALEA_API alea_status alea_state_to_json(const alea_state* state, char** json, alea_error** error);
ALEA_API void alea_state_free(alea_state* state);

#ifdef __cplusplus
}
#endif

#endif /* ALEA_ALEA_H */
