#include "mf/core/error.hpp"

#include <gtest/gtest.h>

#include "mf/core/expected.hpp"

namespace mf {
namespace {

TEST(Error, PrintsFilePositionPathAndMessage) {
  EXPECT_EQ((Error{"hero.mskel", "bones[4].parent", {12, 5}, "unknown bone \"x\""}).to_string(),
            "hero.mskel:12:5: bones[4].parent: unknown bone \"x\"");
  EXPECT_EQ((Error{"hero.mskel", "", {3, 0}, "bad"}).to_string(), "hero.mskel:3: bad");
  EXPECT_EQ((Error{"hero.mskel", "uid", {}, "bad"}).to_string(), "hero.mskel: uid: bad");
  EXPECT_EQ((Error{"", "", {}, "bad"}).to_string(), "bad");
}

TEST(Expected, HoldsValueOrError) {
  Expected<int> good = 4;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 4);
  Expected<int> bad = Unexpected{Error{"f", "", {}, "nope"}};
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "nope");
  Status fine;
  EXPECT_TRUE(fine.ok());
}

}  // namespace
}  // namespace mf
