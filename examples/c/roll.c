/* examples/c/roll.c — alea from C99: a roll, a ruleset's mechanic, exact odds, an error.
 *
 *   cc -std=c99 roll.c $(pkg-config --cflags --libs alea) -o roll && ./roll
 *
 * Takes the directory of the rulesets as its argument when given (the test suite passes the
 * source tree's); else the library finds the rulesets installed with it. */
#include <inttypes.h>
#include <stdio.h>

#include <alea/alea.h>

/* Prints the error and frees it; returns 1, the program's exit status. */
static int fail(alea_error* error) {
  fprintf(stderr, "%s", alea_error_text(error));
  alea_error_free(error);
  return 1;
}

int main(int argc, char** argv) {
  alea_engine* engine = NULL;
  alea_error* error = NULL;
  if (alea_engine_new(NULL, &engine, &error) != ALEA_OK) return fail(error);

  /* A roll from a seed: the same dice every time. */
  alea_run_options* options = alea_run_options_new();
  alea_run_options_set_seed(options, 42);
  alea_result* roll = NULL;
  if (alea_roll(engine, "4d6kh3", options, &roll, &error) != ALEA_OK) return fail(error);
  int64_t total = 0;
  alea_value_int(alea_result_value(roll), &total);
  printf("%s\ntotal %" PRId64 ", from %zu dice:", alea_result_text(roll), total, alea_result_dice_count(roll));
  for (size_t i = 0; i < alea_result_dice_count(roll); ++i) {
    printf(" %" PRId64 " %s", alea_result_die_face(roll, i), alea_result_die_fate(roll, i));
  }
  printf("\n");
  alea_result_free(roll);

  /* A ruleset's mechanic, with the dice a player rolled at the table; its result is a record. */
  const char* dirs[] = {argc > 1 ? argv[1] : ""};
  if (alea_engine_load_ruleset(engine, "heroes-mythos", dirs, argc > 1 ? 1 : 0, &error) != ALEA_OK) return fail(error);
  alea_run_options* table = alea_run_options_new();
  const int64_t faces[] = {5, 4, 2, 3};
  if (alea_run_options_set_dice(table, faces, 4, &error) != ALEA_OK) return fail(error);
  if (alea_roll(engine, "heroes_mythos.check(3, red: 1)", table, &roll, &error) != ALEA_OK) return fail(error);
  const alea_value* check = alea_result_value(roll);
  for (size_t i = 0; i < alea_value_count(check); ++i) {
    const alea_value* field = alea_value_item(check, i);
    int64_t n = 0;
    int b = 0;
    if (alea_value_int(field, &n) == ALEA_OK) printf("%s = %" PRId64 "\n", alea_value_field_name(check, i), n);
    else if (alea_value_bool(field, &b) == ALEA_OK) printf("%s = %s\n", alea_value_field_name(check, i), b ? "true" : "false");
  }
  alea_result_free(roll);

  /* Exact odds: each probability as a fraction. */
  alea_program* program = NULL;
  alea_stats* stats = NULL;
  if (alea_compile(engine, "2d6 >= 10", NULL, &program, &error) != ALEA_OK) return fail(error);
  if (alea_stats_run(engine, program, NULL, &stats, &error) != ALEA_OK) return fail(error);
  for (size_t i = 0; i < alea_stats_entry_count(stats, 0); ++i) {
    int b = 0;
    alea_value_bool(alea_stats_entry_value(stats, 0, i), &b);
    printf("P(2d6 >= 10 is %s) = %s\n", b ? "true" : "false", alea_stats_entry_fraction(stats, 0, i));
  }
  alea_stats_free(stats);
  alea_program_free(program);

  /* A mistake comes back as an error with its place. */
  if (alea_roll(engine, "3d6 + strength", options, &roll, &error) != ALEA_OK) {
    printf("%s at %d:%d: %s\n", alea_error_code(error), alea_error_line(error), alea_error_column(error),
           alea_error_message(error));
    alea_error_free(error);
  }

  alea_run_options_free(table);
  alea_run_options_free(options);
  alea_engine_free(engine);
  return 0;
}
