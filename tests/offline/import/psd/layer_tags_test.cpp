// Tags in layer names: read in any case and anywhere, taken out of the name, unknown brackets kept.

#include <gtest/gtest.h>

#include "mf/offline/import/psd/layer_tags.hpp"

namespace mf::offline {
namespace {

TEST(LayerTags, PlainNameHasNoTags) {
  const LayerTags t = parse_layer_tags("  Left   arm ");
  EXPECT_EQ(t.name, "Left arm");
  EXPECT_FALSE(t.ignore || t.slot || t.skin || t.merge || t.bone || t.mesh || t.normal || t.origin);
  EXPECT_TRUE(t.unsupported.empty());
}

TEST(LayerTags, EveryTagIsReadAndTakenOutOfTheName) {
  EXPECT_TRUE(parse_layer_tags("[ignore] sketch").ignore);
  EXPECT_TRUE(parse_layer_tags("Eyes [slot]").slot);
  EXPECT_TRUE(parse_layer_tags("[merge]Hair").merge);
  EXPECT_TRUE(parse_layer_tags("[bone] arm").bone);
  EXPECT_TRUE(parse_layer_tags("cape [mesh]").mesh);
  EXPECT_TRUE(parse_layer_tags("[normal] cape").normal);
  EXPECT_TRUE(parse_layer_tags("[origin]").origin);
  const LayerTags skin = parse_layer_tags("[skin] red");
  EXPECT_TRUE(skin.skin);
  EXPECT_EQ(skin.name, "red");
  EXPECT_TRUE(skin.skin_name.empty());
  EXPECT_EQ(parse_layer_tags("[bone] arm").name, "arm");
  EXPECT_EQ(parse_layer_tags("[merge]Hair").name, "Hair");
  EXPECT_EQ(parse_layer_tags("[origin]").name, "");
}

TEST(LayerTags, SeveralTagsAnyCaseAnywhere) {
  const LayerTags t = parse_layer_tags("[BONE]fore[Mesh]arm [normal]");
  EXPECT_TRUE(t.bone);
  EXPECT_TRUE(t.mesh);
  EXPECT_TRUE(t.normal);
  EXPECT_EQ(t.name, "fore arm");  // a tag between words keeps them apart
}

TEST(LayerTags, SkinWithAValueNamesTheSkin) {
  const LayerTags t = parse_layer_tags("[skin:blue] Outfit");
  EXPECT_TRUE(t.skin);
  EXPECT_EQ(t.skin_name, "blue");
  EXPECT_EQ(t.name, "Outfit");
}

TEST(LayerTags, UnsupportedScriptTagsAreTakenOutAndListed) {
  const LayerTags t = parse_layer_tags("hand [folder] [scale:2] [mesh:other] [trim]");
  EXPECT_EQ(t.name, "hand");
  EXPECT_FALSE(t.mesh);  // [mesh:name] is a linked mesh, not carried out
  EXPECT_EQ(t.unsupported, (std::vector<std::string>{"[folder]", "[scale:2]", "[mesh:other]", "[trim]"}));
}

TEST(LayerTags, BracketsThatAreNoTagStayInTheName) {
  const LayerTags t = parse_layer_tags("Arm [L] [v2");
  EXPECT_EQ(t.name, "Arm [L] [v2");
  EXPECT_TRUE(t.unsupported.empty());
  EXPECT_EQ(parse_layer_tags("a[]b").name, "a[]b");
}

}  // namespace
}  // namespace mf::offline
