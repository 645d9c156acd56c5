// bench/process_bench.cpp — `alea roll 4d6kh3` as a whole process: posix_spawn
// of the alea program built with this benchmark (ALEA_BINARY, from CMake), its
// output to /dev/null, and waitpid. Wall-clock time; a run that does not exit 0
// stops the benchmark with an error. The program itself is timed, not
// scripts/alea, the bash wrapper that first checks packages and the build.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

extern char** environ;

namespace {

void whole_process(benchmark::State& state) {
  char arg0[] = "alea", arg1[] = "roll", arg2[] = "4d6kh3";
  char* argv[] = {arg0, arg1, arg2, nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  for (auto _ : state) {
    pid_t pid = 0;
    if (posix_spawn(&pid, ALEA_BINARY, &actions, nullptr, argv, environ) != 0) {
      state.SkipWithError("cannot start " ALEA_BINARY);
      break;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError(ALEA_BINARY " roll 4d6kh3 did not exit 0");
      break;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  state.SetLabel(ALEA_BINARY);
}

BENCHMARK(whole_process)->Name("process/alea roll 4d6kh3")->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
