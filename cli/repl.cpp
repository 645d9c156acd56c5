// cli/repl.cpp — placeholder replaced below
#include "cli/repl.hpp"
namespace alea::cli {
int run_repl(const ReplOptions&) { return 0; }
}
