#include "mf/core/file_io.hpp"

#include <csignal>
#include <filesystem>

#include <sys/resource.h>

#include <gtest/gtest.h>

namespace mf {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mf_file_io_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileIo, WritesThenReadsBack) {
  const std::string path = (dir_ / "a.txt").string();
  ASSERT_TRUE(write_file_atomic(path, "hello\n").ok());
  auto text = read_file(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "hello\n");
  ASSERT_TRUE(write_file_atomic(path, "again").ok());
  EXPECT_EQ(*read_file(path), "again");
}

TEST_F(FileIo, LeavesNoTemporaryFiles) {
  const std::string path = (dir_ / "a.txt").string();
  ASSERT_TRUE(write_file_atomic(path, "x").ok());
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

// A write that fails half way (here: the file-size limit, which holds for root too) reports the file
// and leaves the original untouched.
TEST_F(FileIo, FailedWriteKeepsTheOriginal) {
  const std::string path = (dir_ / "a.txt").string();
  ASSERT_TRUE(write_file_atomic(path, "original").ok());
  struct rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  void (*old_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 4;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const Status s = write_file_atomic(path, std::string(100000, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().to_string().find("a.txt"), std::string::npos);
  EXPECT_EQ(*read_file(path), "original");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1) << "the temporary file is removed";
}

TEST_F(FileIo, ReadErrorsNameTheFile) {
  auto missing = read_file((dir_ / "missing.mskel").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().to_string().find("missing.mskel"), std::string::npos);
  auto directory = read_file(dir_.string());
  ASSERT_FALSE(directory.ok());
}

}  // namespace
}  // namespace mf
