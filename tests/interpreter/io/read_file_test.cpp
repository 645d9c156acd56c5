// tests/interpreter/io/read_file_test.cpp — read_file_capped refuses what is not a regular
// file, and anything over its cap, before reading it; it never blocks.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "interpreter/io/read_file.hpp"

namespace alea {
namespace read_file_test {

namespace fs = std::filesystem;

class ReadFile : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("alea-read-file-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

TEST_F(ReadFile, ReadsARegularFileWhole) {
  const FileText r = read_file_capped(write("a.txt", "hello\n"), 100);
  ASSERT_TRUE(r.text) << r.error;
  EXPECT_EQ(*r.text, "hello\n");
}

TEST_F(ReadFile, ReadsAFileOfExactlyTheCap) {
  const FileText r = read_file_capped(write("a.txt", std::string(100, 'x')), 100);
  ASSERT_TRUE(r.text) << r.error;
  EXPECT_EQ(r.text->size(), 100u);
}

TEST_F(ReadFile, MissingFileIsMissing) {
  const FileText r = read_file_capped(dir / "nothing", 100);
  EXPECT_FALSE(r.text);
  EXPECT_TRUE(r.missing);
  EXPECT_EQ(r.error, "does not exist");
}

TEST_F(ReadFile, RefusesADirectory) {
  const FileText r = read_file_capped(dir, 100);
  EXPECT_FALSE(r.text);
  EXPECT_FALSE(r.missing);
  EXPECT_EQ(r.error, "is a directory");
}

TEST_F(ReadFile, RefusesAFifoWithoutWaitingForAWriter) {
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const FileText r = read_file_capped(fifo, 100);  // would block forever if it opened for reading
  EXPECT_FALSE(r.text);
  EXPECT_EQ(r.error, "is a FIFO (a named pipe), not a file");
}

TEST_F(ReadFile, RefusesDevices) {
  for (const char* dev : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    const FileText r = read_file_capped(dev, 100);
    EXPECT_FALSE(r.text) << dev;
    EXPECT_EQ(r.error, "is a device, not a file") << dev;
  }
}

TEST_F(ReadFile, RefusesASparseFileOverTheCapBeforeReadingIt) {
  const fs::path big = dir / "sparse";
  {
    const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t{10} << 30), 0);  // 10 GB, no block written
    ::close(fd);
  }
  const FileText r = read_file_capped(big, 1'000'000);
  EXPECT_FALSE(r.text);
  EXPECT_TRUE(r.too_large);
  EXPECT_EQ(r.error, "is 10737418240 bytes; at most 1000000 may be read");
}

TEST_F(ReadFile, FollowsASymlinkToWhatItNames) {
  const fs::path target = write("real.txt", "ok");
  fs::create_symlink(target, dir / "link.txt");
  const FileText r = read_file_capped(dir / "link.txt", 100);
  ASSERT_TRUE(r.text) << r.error;
  EXPECT_EQ(*r.text, "ok");
  fs::create_symlink("/dev/zero", dir / "zero.txt");
  EXPECT_EQ(read_file_capped(dir / "zero.txt", 100).error, "is a device, not a file");
  fs::create_symlink(dir, dir / "dir.txt");
  EXPECT_EQ(read_file_capped(dir / "dir.txt", 100).error, "is a directory");
}

TEST_F(ReadFile, ReadsADescriptorUpToTheCap) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "0123456789", 10), 10);
  ::close(fds[1]);
  const FileText r = read_fd_capped(fds[0], 5);
  ::close(fds[0]);
  EXPECT_FALSE(r.text);
  EXPECT_TRUE(r.too_large);
  EXPECT_EQ(r.error, "is more than 5 bytes; at most 5 may be read");

  const int zero = ::open("/dev/zero", O_RDONLY);
  ASSERT_GE(zero, 0);
  const FileText z = read_fd_capped(zero, 1000);  // endless input stops at the cap
  ::close(zero);
  EXPECT_TRUE(z.too_large);
}

}  // namespace read_file_test
}  // namespace alea
