// apply_pending() is called every frame: while nothing changes on disk it must not allocate (an empty
// poll of the watcher, an empty report). Counted with the replaced global operator new.

#include <gtest/gtest.h>

#include <chrono>

#include "counting_new.hpp"
#include "live_reload/rig_copy.hpp"
#include "mf/live_reload/live_skeleton.hpp"
#include "mf/live_reload/rig_reloader.hpp"
#include "mf/scene/scene_tree.hpp"
#include "support/temp_dir.hpp"

namespace mf::live_reload {
namespace {

TEST(LiveReloadAllocation, AnIdleFrameAllocatesNothing) {
  mf::testing::TempDir temp("mf_reload_alloc");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloaderOptions o;
  o.load.cache_dir = "off";
  Expected<RigReloader> r = RigReloader::open(mskel, o);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  LiveSkeleton live(r->current());
  live.skeleton().tracks().set_clip(0, live.skeleton().data().find_clip("walk"), true);
  scene::SceneTree tree;
  for (int k = 0; k < 10; ++k) {  // warm
    (void)r->apply_pending(tree);
    tree.advance(1.0f / 60);
    live.skeleton().update(1.0f / 60);
  }

  const std::size_t before = mf::testing::allocation_count();
  for (int k = 0; k < 300; ++k) {
    const ReloadReport report = r->apply_pending(tree);
    EXPECT_EQ(report.outcome, ReloadOutcome::Unchanged);
    if (live.generation() != r->generation()) live.follow(r->current());
    tree.advance(1.0f / 60);
    live.skeleton().update(1.0f / 60);
  }
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u);
}

}  // namespace
}  // namespace mf::live_reload
