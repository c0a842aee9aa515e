// make_example_art <out_dir>: draws every image of the mannequin example rig
// (examples/mannequin/images) procedurally and writes them as RGBA PNGs with straight alpha.
//
// The drawing (drawing.hpp) uses anti-aliased signed-distance shapes with a darker outline and a
// soft pseudo-3D shading. Only +, -, *, / and sqrt touch pixel values (no sin, cos or pow), and the
// target is built with -ffp-contract=off, so the output bytes are the same on every run.
//
// Every canvas knows the drawing coordinate of its top-left pixel, so shapes are given in the rig's
// own space: limb images in their bone's space (x along the bone from its origin), upright images
// (head, neck, torso, pelvis, helmet) in the setup pose's world space (Y down, the feet on y = 0,
// the character facing +x), and the scarf's tail as a straight strip that a weighted mesh bends.
// examples/mannequin/mannequin.mskel places each attachment with the same numbers, so the parts
// line up into the character in the setup pose.
//
// Most images also get a tangent-space normal map, <image>_n.png (the rig's normalSuffix), drawn
// from a height field over the same shapes (normal_map.hpp): rounded bodies, raised plates and bands,
// seams as grooves. The scarf's tail and the ground shadow stay flat (no normal map).

#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "drawing.hpp"
#include "normal_map.hpp"

namespace mf::tools {
namespace {

using namespace art;

// ---- palette ------------------------------------------------------------------------------------

const ColorF kSkin = rgb(0xf2c29b);
const ColorF kHair = rgb(0x6b4127);
const ColorF kShirt = rgb(0x3f7fd1);
const ColorF kPants = rgb(0x3c4260);
const ColorF kShoe = rgb(0x8a5530);
const ColorF kSole = rgb(0x3a2a22);
const ColorF kBelt = rgb(0x5a3a22);
const ColorF kBuckle = rgb(0xe0b040);
const ColorF kScarf = rgb(0xd83a3a);
const ColorF kScarfStripe = rgb(0xf3d36b);
const ColorF kEye = rgb(0x2a2030);
const ColorF kSteel = rgb(0xb8c4d0);
const ColorF kSteelDark = rgb(0x7d8a98);
const ColorF kGold = rgb(0xd9a935);
const ColorF kTabard = rgb(0xb02a3a);
const ColorF kLeather = rgb(0x6a4228);

// ---- the images ---------------------------------------------------------------------------------

// A limb: a tapered capsule along the bone from x = 0 to x = len.
void limb(Canvas& c, float len, float r0, float r1, ColorF base) {
  const Sdf s = capsule({0, 0}, {len, 0}, r0, r1);
  c.outlined(s, rounded(s, base, std::max(r0, r1), {0, -0.9f}), outline_of(base));
}

Canvas upper_arm() {
  Canvas c(84, 30, {-15, -15});
  limb(c, 54, 12, 10, kShirt);
  // Cuff seam near the elbow.
  const Sdf seam = intersect(capsule({0, 0}, {54, 0}, 10.5f, 8.5f), round_box({44, 0}, {1.2f, 14}, 0));
  c.fill(seam, scaled(kShirt, 0.7f));
  return c;
}

Canvas upper_arm_knight() {
  Canvas c(84, 32, {-15, -16});
  limb(c, 54, 12, 10, kShirt);
  // Rerebrace plate over the arm, and a pauldron over the shoulder.
  const Sdf plate = capsule({10, 0}, {46, 0}, 11.5f, 10);
  c.outlined(plate, rounded(plate, kSteel, 10, {0, -0.9f}), outline_of(kSteelDark));
  const Sdf pauldron = intersect(ellipse({4, 0}, 20, 15), half_plane({16, 0}, {1, 0}));
  c.outlined(pauldron, rounded(pauldron, kSteel, 12, {-0.3f, -0.9f}), outline_of(kSteelDark));
  const Sdf trim = subtract(intersect(ellipse({4, 0}, 20, 15), half_plane({16, 0}, {1, 0})),
                            half_plane({12.5f, 0}, {1, 0}));
  c.fill(trim, kGold);
  const Sdf rivet = unite(circle({6, -8}, 1.6f), circle({6, 8}, 1.6f));
  c.fill(rivet, kSteelDark);
  return c;
}

Canvas forearm() {
  Canvas c(72, 24, {-12, -12});
  limb(c, 48, 9, 8, kSkin);
  return c;
}

Canvas hand() {
  Canvas c(44, 28, {-10, -14});
  // A mitten: palm and fingers as one rounded shape, the thumb on the forward side.
  const Sdf palm = unite(ellipse({11, 0}, 11, 8.5f), capsule({0, 0}, {8, 0}, 7, 8));
  const Sdf thumb = capsule({5, -6}, {13, -9}, 3.6f, 3.2f);
  const Sdf all = unite(palm, thumb);
  c.outlined(all, rounded(all, kSkin, 8, {0, -0.9f}), outline_of(kSkin));
  // Finger creases.
  for (float y : {-2.5f, 2.5f}) c.fill(capsule({15, y}, {21, y * 1.1f}, 0.6f, 0.6f), scaled(kSkin, 0.62f));
  return c;
}

Canvas thigh() {
  Canvas c(108, 38, {-19, -19});
  limb(c, 70, 16, 12, kPants);
  return c;
}

Canvas shin() {
  Canvas c(97, 30, {-15, -15});
  limb(c, 67, 12, 9.5f, kPants);
  // Trouser hem above the shoe.
  const Sdf hem = intersect(capsule({0, 0}, {67, 0}, 12, 10.5f), round_box({69, 0}, {2, 14}, 0));
  c.fill(hem, scaled(kPants, 0.7f));
  return c;
}

// Foot space: the ankle at the origin, toes towards +x, the sole's bottom at y = 12 (the ground
// when the foot is flat).
Sdf shoe_shape() {
  return unite(unite(ellipse({-3, 3}, 11, 9), capsule({2, 4}, {26, 6.5f}, 7.5f, 5.5f)),
               round_box({10, 9}, {22, 3}, 3));
}

Canvas foot() {
  Canvas c(56, 28, {-18, -12});
  const Sdf shoe = shoe_shape();
  c.outlined(shoe, rounded(shoe, kShoe, 8), outline_of(kShoe));
  const Sdf sole = intersect(grow(shoe, -1.6f), half_plane({0, 9.5f}, {0, -1}));
  c.fill(sole, kSole);
  // Laces.
  for (float x : {6.0f, 11.0f}) c.fill(capsule({x, -1.5f}, {x + 3, 0.5f}, 0.8f, 0.8f), rgb(0xf0e0c8));
  return c;
}

Canvas boot() {
  Canvas c(56, 44, {-18, -28});
  const Sdf shaft = round_box({-1, -10}, {11, 16}, 5);
  const Sdf body = unite(shoe_shape(), shaft);
  c.outlined(body, rounded(body, kLeather, 9), outline_of(kLeather));
  const Sdf cuff = intersect(grow(body, -1.6f), half_plane({0, -19}, {0, 1}));
  c.fill(cuff, scaled(kLeather, 0.8f));
  const Sdf toe_cap = intersect(capsule({12, 5}, {26, 6.5f}, 7.5f, 5.5f), half_plane({12, 0}, {-1, 0}));
  c.outlined(toe_cap, rounded(toe_cap, kSteel, 6), outline_of(kSteelDark), 1.2f);
  const Sdf sole = intersect(grow(body, -1.6f), half_plane({0, 9.5f}, {0, -1}));
  c.fill(sole, kSole);
  c.fill(round_box({-1, -6}, {11.5f, 1.6f}, 0.8f), kBuckle);
  return c;
}

// Upright images are drawn in the setup pose's world space (pixels, Y down, feet on y = 0).
Canvas neck() {
  Canvas c(20, 28, {-10, -262});
  const Sdf s = round_box({0, -249}, {7, 13}, 5);
  c.outlined(s, rounded(s, scaled(kSkin, 0.92f), 7, {1, 0}), outline_of(kSkin));
  return c;
}

Canvas pelvis() {
  Canvas c(52, 40, {-26, -164});
  const Sdf s = round_box({0, -145}, {22, 17}, 12);
  c.outlined(s, rounded(s, kPants, 14), outline_of(kPants));
  return c;
}

// The torso's side silhouette (facing +x): straight back, chest forward, a little belly; also the
// armour's outline.
Sdf torso_shape() {
  return polygon({{-11, -252}, {-19, -247}, {-23, -238}, {-24.5f, -222}, {-23.5f, -204}, {-21.5f, -186},
                  {-21.5f, -168}, {-22.5f, -152}, {-20, -143}, {-12, -139}, {0, -138.5f}, {12, -139},
                  {19.5f, -143}, {21, -152}, {21, -166}, {22.5f, -182}, {25, -198}, {26.5f, -214},
                  {25.5f, -229}, {20, -241}, {11, -249.5f}, {0, -253}});
}

Sdf collar_shape() { return ellipse({3, -247}, 17, 8); }

void scarf_wrap(Canvas& c) {
  const Sdf collar = collar_shape();
  c.outlined(collar, rounded(collar, kScarf, 7), outline_of(kScarf));
  const Sdf stripe = intersect(grow(collar, -1.6f), half_plane({0, -247}, {0, -1}));
  c.fill(intersect(stripe, half_plane({0, -244.5f}, {0, 1})), kScarfStripe);
}

void belt(Canvas& c, const Sdf& body) {
  const Sdf band = intersect(grow(body, -1.6f), round_box({0, -152}, {40, 4}, 0));
  c.fill(band, kBelt);
  c.outlined(round_box({17, -152}, {4, 4.5f}, 1.5f), [](Vec2, float) { return kBuckle; }, outline_of(kBuckle), 1.2f);
}

Canvas torso() {
  Canvas c(60, 112, {-30, -256});
  const Sdf body = torso_shape();
  c.outlined(body, rounded(body, kShirt, 12), outline_of(kShirt));
  // Buttons down the front.
  for (float y : {-226.0f, -206.0f, -186.0f, -166.0f}) {
    const float x = y > -200 ? 15.5f : 18.5f;
    c.outlined(circle({x, y}, 1.9f), [](Vec2, float) { return rgb(0xe8eef8); }, scaled(kShirt, 0.5f), 0.8f);
  }
  belt(c, body);
  scarf_wrap(c);
  return c;
}

Canvas torso_knight() {
  Canvas c(60, 112, {-30, -256});
  const Sdf body = torso_shape();
  // Mail under a steel breastplate, a tabard down the front.
  c.outlined(body, rounded(body, kSteelDark, 12), outline_of(kSteelDark));
  const Sdf plate = intersect(grow(body, -1.5f), half_plane({0, -166}, {0, 1}));
  c.outlined(plate, rounded(plate, kSteel, 12), outline_of(kSteelDark), 1.2f);
  for (float y : {-172.0f, -160.0f, -148.0f}) {
    c.fill(intersect(grow(body, -2), capsule({-30, y}, {30, y}, 0.6f, 0.6f)), scaled(kSteelDark, 0.7f));
  }
  const Sdf tabard = intersect(grow(body, -1.6f), round_box({5, -186}, {11, 44}, 3));
  c.outlined(tabard, rounded(tabard, kTabard, 6), outline_of(kTabard), 1.2f);
  c.fill(intersect(tabard, polygon({{6, -212}, {11, -204}, {6, -196}, {1, -204}})), kGold);
  belt(c, body);
  scarf_wrap(c);
  return c;
}

Canvas head() {
  Canvas c(72, 80, {-36, -328});
  const Sdf cranium = ellipse({0, -291}, 27, 29);
  const Sdf jaw = ellipse({9, -276}, 19, 16);
  const Sdf nose = ellipse({27, -285}, 5, 5.5f);
  const Sdf face = unite(unite(cranium, jaw), nose);
  c.outlined(face, rounded(face, kSkin, 22), outline_of(kSkin));
  // Ear.
  const Sdf ear = ellipse({-4, -284}, 5.5f, 7.5f);
  c.outlined(ear, rounded(ear, kSkin, 5), outline_of(kSkin), 1.3f);
  c.fill(ellipse({-3.5f, -284}, 2, 4), scaled(kSkin, 0.75f));
  // Hair: a cap over the top and back, leaving the face free, with a fringe over the forehead.
  const Sdf cap = unite(ellipse({-3, -297}, 29.5f, 23.5f), ellipse({-13, -287}, 18, 20));
  const Sdf face_cut = intersect(half_plane({4, -296}, {-0.55f, -1}), half_plane({-8, -270}, {-1, 0.2f}));
  const Sdf fringe = ellipse({14, -305}, 13, 7);
  const Sdf hair = subtract(unite(subtract(cap, face_cut), fringe), ellipse({-4, -284}, 7, 9.5f));
  c.outlined(hair, rounded(hair, kHair, 12), outline_of(kHair));
  // A few strands.
  c.fill(capsule({-20, -300}, {-8, -313}, 0.7f, 0.7f), scaled(kHair, 0.65f));
  c.fill(capsule({-22, -290}, {-14, -306}, 0.7f, 0.7f), scaled(kHair, 0.65f));
  // Cheek.
  c.fill(ellipse({8, -277}, 6, 4), rgb(0xf08a80, 0.45f));
  // Eyes: the near one large, the far one smaller near the nose (three-quarter view).
  for (const auto& [centre, rx, ry] : {std::tuple{Vec2{13, -290}, 3.6f, 5.2f}, std::tuple{Vec2{24.5f, -291}, 2.6f, 4.6f}}) {
    c.fill(ellipse(centre, rx, ry), kEye);
    c.fill(circle(centre + Vec2{0.9f, -1.6f}, rx * 0.38f), rgb(0xffffff));
  }
  // Brows and mouth.
  c.fill(capsule({9, -299}, {17, -300.5f}, 1.2f, 1.0f), scaled(kHair, 0.8f));
  c.fill(capsule({22, -300.5f}, {27, -300}, 1.0f, 0.9f), scaled(kHair, 0.8f));
  const Sdf smile = intersect(subtract(circle({19, -276}, 6), circle({19, -278.2f}, 5.8f)),
                              half_plane({0, -275}, {0, -1}));
  c.fill(smile, rgb(0x8a3a32));
  return c;
}

Canvas helmet() {
  Canvas c(76, 70, {-38, -340});
  // An open-faced helm: a dome over the crown and the back of the head whose rim runs from above the
  // brow down to the nape, a gold trim along the rim, and a crest.
  const Vec2 rim = {0, -292};
  const Vec2 rim_normal = {0.42f, 1};  // the rim rises towards the face
  const Sdf dome = ellipse({-2, -298}, 31, 26);
  const Sdf shell = intersect(dome, half_plane(rim, rim_normal));
  const Sdf crest = intersect(ellipse({-5, -318}, 25, 16), half_plane({0, -318}, {0.25f, 1}));
  c.outlined(crest, rounded(crest, kTabard, 6), outline_of(kTabard));
  c.outlined(shell, rounded(shell, kSteel, 14), outline_of(kSteelDark));
  const Sdf trim = intersect(grow(shell, -1.5f), half_plane(rim + Vec2{0, -5}, rim_normal * -1));
  c.fill(trim, kGold);
  const Sdf band = intersect(grow(shell, -1.5f), capsule({-2, -330}, {-10, -280}, 2.2f, 2.2f));
  c.fill(band, kGold);
  for (float x : {-24.0f, -16.0f, 10.0f, 19.0f}) c.fill(circle({x, -292 - 0.42f * x - 8}, 1.3f), kSteelDark);
  return c;
}

// The scarf's tail, drawn straight along +x; the rig bends it with a weighted mesh.
Canvas scarf() {
  Canvas c(72, 24, {0, 0});
  const Sdf tail = capsule({6, 12}, {62, 12}, 8, 6);
  c.outlined(tail, rounded(tail, kScarf, 8, {0, -0.9f}), outline_of(kScarf));
  for (float x : {22.0f, 40.0f}) {
    const Sdf stripe = intersect(grow(tail, -1.6f), round_box({x, 12}, {2.5f, 12}, 0));
    c.fill(stripe, kScarfStripe);
  }
  // Fringe at the end.
  for (int i = 0; i < 4; ++i) {
    const float y = 7.5f + 3 * static_cast<float>(i);
    c.outlined(capsule({62, y}, {69, y + 0.5f}, 1.3f, 1.1f), [](Vec2, float) { return kScarf; },
               outline_of(kScarf), 0.8f);
  }
  return c;
}

Canvas shadow() {
  Canvas c(120, 24, {-60, -12});
  const Sdf s = ellipse({0, 0}, 56, 9);
  c.fill(s, [](Vec2 p, float) {
    const float k = length(Vec2{p.x / 56, p.y / 9});
    return ColorF{0.08f, 0.06f, 0.1f, 0.38f * (1 - smoothstep(0.35f, 1.0f, k))};
  });
  return c;
}


// ---- reliefs (the normal maps' height fields, pixels) -------------------------------------------

// A limb's relief: a rounded tube along the bone.
Height limb_relief(float len, float r0, float r1) { return dome(capsule({0, 0}, {len, 0}, r0, r1), std::max(r0, r1) * 0.6f, std::max(r0, r1)); }

Height upper_arm_relief() {
  return sum({limb_relief(54, 12, 10), groove(capsule({44, -14}, {44, 14}, 0.01f, 0.01f), 1.2f, 2)});
}

Height upper_arm_knight_relief() {
  const Sdf plate = capsule({10, 0}, {46, 0}, 11.5f, 10);
  const Sdf pauldron = intersect(ellipse({4, 0}, 20, 15), half_plane({16, 0}, {1, 0}));
  return sum({limb_relief(54, 12, 10), dome(plate, 2.5f, 3), dome(pauldron, 5, 6),
              groove(capsule({12.5f, -16}, {12.5f, 16}, 0.01f, 0.01f), 1, 1.5f),
              dome(unite(circle({6, -8}, 1.6f), circle({6, 8}, 1.6f)), 1, 1.6f)});
}

Height forearm_relief() { return limb_relief(48, 9, 8); }

Height hand_relief() {
  const Sdf palm = unite(ellipse({11, 0}, 11, 8.5f), capsule({0, 0}, {8, 0}, 7, 8));
  const Sdf thumb = capsule({5, -6}, {13, -9}, 3.6f, 3.2f);
  return sum({dome(palm, 4, 7), dome(thumb, 2, 3), groove(capsule({15, -2.5f}, {21, -2.75f}, 0.01f, 0.01f), 1, 1.5f),
              groove(capsule({15, 2.5f}, {21, 2.75f}, 0.01f, 0.01f), 1, 1.5f)});
}

Height thigh_relief() { return limb_relief(70, 16, 12); }

Height shin_relief() {
  return sum({limb_relief(67, 12, 9.5f), groove(capsule({67, -14}, {67, 14}, 0.01f, 0.01f), 1.2f, 2)});
}

Height foot_relief() {
  const Sdf shoe = shoe_shape();
  return sum({dome(shoe, 5, 7), groove(half_plane({0, 9.5f}, {0, -1}), 1, 1.2f)});
}

Height boot_relief() {
  const Sdf body = unite(shoe_shape(), round_box({-1, -10}, {11, 16}, 5));
  const Sdf toe_cap = intersect(capsule({12, 5}, {26, 6.5f}, 7.5f, 5.5f), half_plane({12, 0}, {-1, 0}));
  return sum({dome(body, 5, 8), dome(toe_cap, 1.5f, 2), groove(half_plane({0, -19}, {0, 1}), 1, 1.2f),
              dome(round_box({-1, -6}, {11.5f, 1.6f}, 0.8f), 1, 1.2f)});
}

Height neck_relief() { return dome(round_box({0, -249}, {7, 13}, 5), 4, 7); }

Height pelvis_relief() { return dome(round_box({0, -145}, {22, 17}, 12), 7, 11); }

// What the torso and the knight's torso share: the rounded body, a side seam, the belt and the
// scarf's collar.
std::vector<Height> torso_base_relief() {
  const Sdf body = torso_shape();
  return {dome(body, 7, 11),
          dome(intersect(grow(body, -1.6f), round_box({0, -152}, {40, 4}, 0)), 1.2f, 1.5f),
          dome(round_box({17, -152}, {4, 4.5f}, 1.5f), 1, 1.5f),
          dome(collar_shape(), 4, 6),
          groove(capsule({-7, -236}, {-5, -158}, 0.01f, 0.01f), 1.2f, 1.8f)};
}

Height torso_relief() {
  std::vector<Height> parts = torso_base_relief();
  for (float y : {-226.0f, -206.0f, -186.0f, -166.0f}) parts.push_back(dome(circle({y > -200 ? 15.5f : 18.5f, y}, 1.9f), 1, 1.9f));
  // The placket the buttons sit on.
  parts.push_back(groove(capsule({21, -238}, {13, -158}, 0.01f, 0.01f), 0.8f, 1.5f));
  return sum(std::move(parts));
}

Height torso_knight_relief() {
  const Sdf body = torso_shape();
  std::vector<Height> parts = torso_base_relief();
  parts.push_back(dome(intersect(grow(body, -1.5f), half_plane({0, -166}, {0, 1})), 2, 2.5f));
  for (float y : {-172.0f, -160.0f, -148.0f}) parts.push_back(groove(capsule({-30, y}, {30, y}, 0.01f, 0.01f), 1, 1.5f));
  parts.push_back(dome(intersect(grow(body, -1.6f), round_box({5, -186}, {11, 44}, 3)), 1, 1.5f));
  return sum(std::move(parts));
}

Height head_relief() {
  const Sdf face = unite(unite(ellipse({0, -291}, 27, 29), ellipse({9, -276}, 19, 16)), ellipse({27, -285}, 5, 5.5f));
  const Sdf cap = unite(ellipse({-3, -297}, 29.5f, 23.5f), ellipse({-13, -287}, 18, 20));
  const Sdf face_cut = intersect(half_plane({4, -296}, {-0.55f, -1}), half_plane({-8, -270}, {-1, 0.2f}));
  const Sdf hair = subtract(unite(subtract(cap, face_cut), ellipse({14, -305}, 13, 7)), ellipse({-4, -284}, 7, 9.5f));
  return sum({dome(face, 12, 16), dome(ellipse({27, -285}, 5, 5.5f), 2.5f, 4), dome(hair, 2, 2.5f),
              dome(ellipse({-4, -284}, 5.5f, 7.5f), 2, 3), groove(ellipse({-3.5f, -284}, 2, 4), 1, 1.5f),
              groove(capsule({-20, -300}, {-8, -313}, 0.01f, 0.01f), 0.8f, 1.2f),
              groove(capsule({-22, -290}, {-14, -306}, 0.01f, 0.01f), 0.8f, 1.2f),
              dome(capsule({9, -299}, {17, -300.5f}, 1.2f, 1.0f), 0.6f, 1.2f)});
}

Height helmet_relief() {
  const Vec2 rim = {0, -292};
  const Vec2 rim_normal = {0.42f, 1};
  const Sdf shell = intersect(ellipse({-2, -298}, 31, 26), half_plane(rim, rim_normal));
  const Sdf crest = intersect(ellipse({-5, -318}, 25, 16), half_plane({0, -318}, {0.25f, 1}));
  std::vector<Height> parts = {dome(crest, 3, 5), dome(shell, 10, 13),
                               dome(intersect(grow(shell, -1.5f), half_plane(rim + Vec2{0, -5}, rim_normal * -1)), 1.5f, 2),
                               dome(intersect(grow(shell, -1.5f), capsule({-2, -330}, {-10, -280}, 2.2f, 2.2f)), 1.2f, 1.5f)};
  for (float x : {-24.0f, -16.0f, 10.0f, 19.0f}) parts.push_back(dome(circle({x, -292 - 0.42f * x - 8}, 1.3f), 0.8f, 1.3f));
  return sum(std::move(parts));
}

struct Image {
  const char* name;
  Canvas (*draw)();
  Height (*relief)();  // null: no normal map
};

const Image kImages[] = {
    {"boot", boot, boot_relief},
    {"foot", foot, foot_relief},
    {"forearm", forearm, forearm_relief},
    {"hand", hand, hand_relief},
    {"head", head, head_relief},
    {"helmet", helmet, helmet_relief},
    {"neck", neck, neck_relief},
    {"pelvis", pelvis, pelvis_relief},
    {"scarf", scarf, nullptr},
    {"shadow", shadow, nullptr},
    {"shin", shin, shin_relief},
    {"thigh", thigh, thigh_relief},
    {"torso", torso, torso_relief},
    {"torso_knight", torso_knight, torso_knight_relief},
    {"upper_arm", upper_arm, upper_arm_relief},
    {"upper_arm_knight", upper_arm_knight, upper_arm_knight_relief},
};

}  // namespace
}  // namespace mf::tools

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_example_art <out_dir>\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "make_example_art: cannot create %s: %s\n", out.string().c_str(), ec.message().c_str());
    return 1;
  }
  for (const auto& image : mf::tools::kImages) {
    const mf::tools::art::Canvas colour = image.draw();
    if (!mf::tools::art::write_png(out / (std::string(image.name) + ".png"), colour)) return 1;
    if (image.relief == nullptr) continue;
    const std::filesystem::path normal = out / (std::string(image.name) + "_n.png");
    if (!mf::tools::art::write_png(normal, colour.width(), colour.height(), mf::tools::art::normal_rgba8(colour, image.relief()))) return 1;
  }
  return 0;
}
