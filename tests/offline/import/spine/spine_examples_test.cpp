// Spine's own example exports (spineboy, mix-and-match, cloud-pot), when present: each imports with a near-empty
// report, passes check, and every clip builds and poses without NaN. The exports are under Spine's
// licence and never part of the repository: MF_SPINE_EXAMPLES_DIR names their folder (default: the
// shared folder beside the repository); without them the tests skip.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "mf/offline/check/rig_check.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

std::string examples_dir() {
  const char* env = std::getenv("MF_SPINE_EXAMPLES_DIR");
  return env && *env ? env : MF_SPINE_EXAMPLES_DEFAULT;
}

// A near-empty report: for the rig, the project's image folder and the editor-only bone icons; for
// the animations, the few curves whose bezier handles reach outside their segment.
constexpr std::size_t kNearEmptyRigNotes = 2;
constexpr std::size_t kNearEmptyReport = 8;

void import_and_exercise(const std::string& folder, const std::string& json, std::size_t expected_clips) {
  const fs::path path = fs::path(examples_dir()) / folder / json;
  if (!fs::is_regular_file(path))
    GTEST_SKIP() << "Spine example " << path << " not found; set MF_SPINE_EXAMPLES_DIR to the folder holding "
                 << "spineboy/, mix-and-match/ and cloud-pot/ to run this test";
  Expected<SpineImport> import = import_spine({path.string(), {}});
  ASSERT_TRUE(import) << import.error().to_string();
  std::printf("%s\n", import_summary(*import).c_str());
  for (const ImportNote& n : import->notes) std::printf("  report: %s: %s\n", n.where.c_str(), n.message.c_str());
  std::size_t rig_notes = 0;
  // Known differences from Spine's runtime are reported too (physics direction channels); they are
  // honesty, not noise, and do not count against a near-empty report.
  std::size_t known_differences = 0;
  for (const ImportNote& n : import->notes) {
    const bool known = n.message.find("play by our own model") != std::string::npos;
    known_differences += known ? 1 : 0;
    rig_notes += n.where.rfind("animations", 0) == 0 || known ? 0 : 1;
  }
  EXPECT_LE(rig_notes, kNearEmptyRigNotes);
  EXPECT_LE(import->notes.size() - known_differences, kNearEmptyReport);
  EXPECT_EQ(import->clips.size(), expected_clips);
  EXPECT_EQ(import->images.size(), import->skeleton.images.size());  // every image found in the atlas

  mf::testing::TempDir dir("mf_spine_examples");
  ASSERT_TRUE(write_spine_import(*import, dir.path().string()));
  const std::string mskel = dir.file(import->name + ".mskel");
  Expected<Rig> rig = load_rig(mskel);
  ASSERT_TRUE(rig) << rig.error().to_string();
  EXPECT_EQ(rig->clips.size(), expected_clips);
  std::size_t errors = 0;
  for (const Finding& f : check_rig(*rig)) {
    if (f.severity == Severity::Error) ++errors;
    std::printf("  check %s: %s\n", f.severity == Severity::Error ? "error" : "warning", f.error.to_string().c_str());
  }
  EXPECT_EQ(errors, 0u);

  Expected<BuildResult> build = build_rig_file(mskel);
  ASSERT_TRUE(build) << build.error().to_string();
  skel::SkeletonData& data = *build->data;
  ASSERT_EQ(data.clips.size(), expected_clips);
  skel::SkeletonInstance instance(data);
  for (int c = 0; c < static_cast<int>(data.clips.size()); ++c) {
    const float length = data.clips[static_cast<std::size_t>(c)].length;
    for (float t : {0.0f, length * 0.37f, length}) {
      anim::ClipSample sample = skel::loop_sample(data, c, 0, t, false);
      sample.first = true;
      instance.update({&sample, 1});
      const skel::SkeletonPose& pose = instance.pose();
      for (std::size_t b = 0; b < pose.world_x.size(); ++b)
        ASSERT_TRUE(std::isfinite(pose.world_x[b]) && std::isfinite(pose.world_y[b]) && std::isfinite(pose.a[b]) &&
                    std::isfinite(pose.d[b]))
            << data.clips[static_cast<std::size_t>(c)].name << " at " << t << ": bone " << b;
    }
  }
}

TEST(SpineExamples, SpineboyImportsChecksAndPoses) { import_and_exercise("spineboy", "spineboy-pro.json", 11); }

TEST(SpineExamples, MixAndMatchImportsChecksAndPoses) {
  import_and_exercise("mix-and-match", "mix-and-match-pro.json", 6);
}

TEST(SpineExamples, CloudPotImportsChecksAndPoses) { import_and_exercise("cloud-pot", "cloud-pot.json", 3); }

}  // namespace
}  // namespace mf::offline
