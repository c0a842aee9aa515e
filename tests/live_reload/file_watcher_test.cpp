// FileWatcher on real files in a temporary folder. inotify queues an event inside the system call that
// causes it, so a poll right after a write sees it; the settle delay is stepped with explicit times
// (poll(now)), never by sleeping.

#include "mf/live_reload/file_watcher.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "live_reload/rig_copy.hpp"
#include "support/temp_dir.hpp"

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using mf::testing::TempDir;
using test::write_text;

constexpr auto kSettle = 50ms;

FileWatcher make_watcher(std::chrono::milliseconds settle = kSettle, std::chrono::milliseconds max_delay = 1000ms) {
  Expected<FileWatcher> w = FileWatcher::create({settle, max_delay});
  if (!w) ADD_FAILURE() << w.error().to_string();
  return std::move(w).value();
}

std::vector<std::string> paths(const FileChanges& c) {
  std::vector<std::string> out;
  for (const FileChange& f : c.changes) out.push_back(f.path);
  return out;
}

bool has(const FileChanges& c, const std::string& path, bool folder = false) {
  return std::any_of(c.changes.begin(), c.changes.end(),
                     [&](const FileChange& f) { return f.path == normal_path(path) && f.folder == folder; });
}

// Polls once after the settle delay: what a burst that ended at `t` reports.
FileChanges settled(FileWatcher& w, WatchClock::time_point& t) {
  EXPECT_TRUE(w.poll(t).changes.empty()) << "reported before settling";
  t += kSettle;
  return w.poll(t);
}

TEST(FileWatcher, ReportsAWriteOnceSettled) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("clip.manim");
  write_text(file, "one");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_file(file).ok());
  auto t = WatchClock::now();
  EXPECT_TRUE(w.poll(t).empty());

  write_text(file, "two");
  const FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(file)});
  EXPECT_TRUE(c.errors.empty());
  t += 1s;
  EXPECT_TRUE(w.poll(t).empty());  // reported once
}

TEST(FileWatcher, OnlyTheWatchedFileOfItsFolder) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("a.manim");
  write_text(file, "a");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_file(file).ok());
  auto t = WatchClock::now();
  write_text(temp.file("b.manim"), "b");
  t += 1s;
  EXPECT_TRUE(w.poll(t).empty());
}

TEST(FileWatcher, CatchesASaveThatRenamesOverTheFile) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("walk.manim");
  write_text(file, "old");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_file(file).ok());
  auto t = WatchClock::now();

  test::save_by_rename(file, "new");  // the old inode is gone: only the folder's watch sees this
  FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(file)});  // the temporary file is not watched

  // And the new file is watched as well: a later plain write is seen too.
  write_text(file, "newer");
  c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(file)});
}

TEST(FileWatcher, FolderReportsNewFilesAndNewSubFolders) {
  TempDir temp("mf_watch");
  const std::string mskel = test::copy_mannequin(temp);
  const fs::path rig = fs::path(mskel).parent_path();
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_folder(rig.string(), true).ok());
  auto t = WatchClock::now();

  const std::string clip = (rig / "mannequin.clips" / "wave.manim").string();
  write_text(clip, "{}");
  FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(clip)});

  // A sub-folder made with a file in it before the watcher looked: both reported, and the folder is
  // watched from then on.
  fs::create_directories(rig / "mannequin.clips" / "emotes");
  const std::string nested = (rig / "mannequin.clips" / "emotes" / "angry.manim").string();
  write_text(nested, "{}");
  c = settled(w, t);
  EXPECT_TRUE(has(c, (rig / "mannequin.clips" / "emotes").string(), true));
  EXPECT_TRUE(has(c, nested));
  write_text(nested, "{ }");
  c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(nested)});

  // Moved inside the tree: reported under the new path, and watched there.
  fs::rename(rig / "mannequin.clips" / "emotes", rig / "mannequin.clips" / "moods");
  c = settled(w, t);
  EXPECT_TRUE(has(c, (rig / "mannequin.clips" / "emotes").string(), true));
  EXPECT_TRUE(has(c, (rig / "mannequin.clips" / "moods").string(), true));
  const std::string moved = (rig / "mannequin.clips" / "moods" / "angry.manim").string();
  write_text(moved, "{  }");
  c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(moved)});
}

TEST(FileWatcher, NonRecursiveFolderLeavesSubFoldersOut) {
  TempDir temp("mf_watch");
  fs::create_directories(temp.path() / "sub");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_folder(temp.path().string(), false).ok());
  auto t = WatchClock::now();
  write_text(temp.file("sub/inner.png"), "x");
  t += 1s;
  EXPECT_TRUE(w.poll(t).empty());
  write_text(temp.file("top.png"), "x");
  const FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(temp.file("top.png"))});
}

TEST(FileWatcher, ReportsADeletedFile) {
  TempDir temp("mf_watch");
  const std::string mskel = test::copy_mannequin(temp);
  const fs::path rig = fs::path(mskel).parent_path();
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_folder(rig.string(), true).ok());
  ASSERT_TRUE(w.watch_file(mskel).ok());  // the same folder twice: one watch, both reasons
  auto t = WatchClock::now();

  const std::string jump = (rig / "mannequin.clips" / "jump.manim").string();
  fs::remove(jump);
  FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(jump)});
  fs::remove(mskel);
  c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(mskel)});
}

TEST(FileWatcher, CoalescesABurstIntoOneReport) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("run.manim");
  const std::string other = temp.file("walk.manim");
  write_text(file, "0");
  write_text(other, "0");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_folder(temp.path().string(), false).ok());
  auto t = WatchClock::now();

  // Twenty writes 10 ms apart, polled after each: nothing is reported while they keep coming.
  for (int k = 0; k < 20; ++k) {
    write_text(file, std::to_string(k));
    if (k == 10) write_text(other, "1");
    EXPECT_TRUE(w.poll(t).changes.empty()) << k;
    t += 10ms;
  }
  t += kSettle;
  const FileChanges c = w.poll(t);
  EXPECT_EQ(paths(c), (std::vector<std::string>{normal_path(file), normal_path(other)}));  // each once
  t += 1s;
  EXPECT_TRUE(w.poll(t).empty());
}

TEST(FileWatcher, ABurstThatNeverSettlesIsReportedAfterTheMaximumDelay) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("log.manim");
  write_text(file, "0");
  FileWatcher w = make_watcher(kSettle, 200ms);
  ASSERT_TRUE(w.watch_file(file).ok());
  auto t = WatchClock::now();
  int reports = 0, polls = 0;
  for (; polls < 40 && reports == 0; ++polls) {
    write_text(file, std::to_string(polls));
    reports += w.poll(t).changes.empty() ? 0 : 1;
    t += 20ms;
  }
  EXPECT_EQ(reports, 1);
  EXPECT_EQ(polls, 11);  // the first change at 0 ms, reported at the poll at 200 ms
}

TEST(FileWatcher, ZeroSettleReportsAtTheNextPoll) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("a.png");
  write_text(file, "a");
  FileWatcher w = make_watcher(0ms);
  ASSERT_TRUE(w.watch_file(file).ok());
  write_text(file, "b");
  EXPECT_EQ(paths(w.poll()), std::vector<std::string>{normal_path(file)});
}

TEST(FileWatcher, AFolderDeletedAndMadeAgainIsWatchedAgain) {
  TempDir temp("mf_watch");
  const fs::path images = temp.path() / "images";
  fs::create_directories(images);
  write_text((images / "head.png").string(), "x");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_folder(images.string(), true).ok());
  auto t = WatchClock::now();

  fs::remove_all(images);
  FileChanges c = settled(w, t);
  EXPECT_TRUE(has(c, (images / "head.png").string()));
  EXPECT_TRUE(has(c, images.string(), true));

  fs::create_directories(images);
  write_text((images / "torso.png").string(), "y");
  c = settled(w, t);
  EXPECT_TRUE(has(c, images.string(), true));
  EXPECT_TRUE(has(c, (images / "torso.png").string()));
  write_text((images / "torso.png").string(), "z");
  c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path((images / "torso.png").string())});
}

TEST(FileWatcher, UnwatchStopsReports) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("a.manim");
  write_text(file, "a");
  FileWatcher w = make_watcher();
  ASSERT_TRUE(w.watch_file(file).ok());
  ASSERT_TRUE(w.watch_folder(temp.path().string(), false).ok());
  EXPECT_EQ(w.watched().size(), 2u);
  w.unwatch(temp.path().string());
  EXPECT_EQ(w.watched(), std::vector<std::string>{normal_path(file)});
  auto t = WatchClock::now();
  write_text(temp.file("b.manim"), "b");  // only the folder's request wanted this
  write_text(file, "b");
  FileChanges c = settled(w, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(file)});
  w.unwatch(file);
  EXPECT_TRUE(w.watched().empty());
  write_text(file, "c");
  t += 1s;
  EXPECT_TRUE(w.poll(t).empty());
}

TEST(FileWatcher, MissingPathsAreErrorsNamingThem) {
  TempDir temp("mf_watch");
  FileWatcher w = make_watcher();
  const std::string missing = temp.file("nope/walk.manim");
  const Status file = w.watch_file(missing);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().file, missing);
  EXPECT_NE(file.error().message.find("no such file"), std::string::npos) << file.error().message;

  const Status folder = w.watch_folder(temp.file("nope"));
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.error().file, temp.file("nope"));
  EXPECT_NE(folder.error().message.find("no such folder"), std::string::npos) << folder.error().message;

  write_text(temp.file("a.png"), "a");
  const Status kind = w.watch_folder(temp.file("a.png"));
  ASSERT_FALSE(kind.ok());
  EXPECT_NE(kind.error().message.find("not a folder"), std::string::npos) << kind.error().message;
  EXPECT_FALSE(w.watch_file(temp.path().string()).ok());
  EXPECT_TRUE(w.watched().empty());
}

TEST(FileWatcher, MovesKeepItsWatches) {
  TempDir temp("mf_watch");
  const std::string file = temp.file("a.manim");
  write_text(file, "a");
  FileWatcher first = make_watcher();
  ASSERT_TRUE(first.watch_file(file).ok());
  FileWatcher moved = std::move(first);
  write_text(file, "b");
  auto t = WatchClock::now();
  const FileChanges c = settled(moved, t);
  EXPECT_EQ(paths(c), std::vector<std::string>{normal_path(file)});
}

}  // namespace
}  // namespace mf::live_reload
