#include "vertex_kernel.hpp"

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "world_vertices.hpp"

namespace mf::skel::detail {

void pack_bones(const SkeletonPose& pose, float* out) {
  const std::size_t n = pose.a.size();
  const float *a = pose.a.data(), *b = pose.b.data(), *c = pose.c.data(), *d = pose.d.data();
  const float *x = pose.world_x.data(), *y = pose.world_y.data();
  std::size_t i = 0;
#if defined(__SSE2__)
  // Four bones at a time: their a, c, b, d transposed into one row each, x and y interleaved.
  for (; i + 4 <= n; i += 4, out += 4 * kPackedBoneFloats) {
    __m128 r0 = _mm_loadu_ps(a + i), r1 = _mm_loadu_ps(c + i), r2 = _mm_loadu_ps(b + i), r3 = _mm_loadu_ps(d + i);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    const __m128 px = _mm_loadu_ps(x + i), py = _mm_loadu_ps(y + i);
    const __m128 xy01 = _mm_unpacklo_ps(px, py), xy23 = _mm_unpackhi_ps(px, py);
    _mm_storeu_ps(out, r0);
    _mm_storel_pi(reinterpret_cast<__m64*>(out + 4), xy01);
    _mm_storeu_ps(out + kPackedBoneFloats, r1);
    _mm_storeh_pi(reinterpret_cast<__m64*>(out + kPackedBoneFloats + 4), xy01);
    _mm_storeu_ps(out + 2 * kPackedBoneFloats, r2);
    _mm_storel_pi(reinterpret_cast<__m64*>(out + 2 * kPackedBoneFloats + 4), xy23);
    _mm_storeu_ps(out + 3 * kPackedBoneFloats, r3);
    _mm_storeh_pi(reinterpret_cast<__m64*>(out + 3 * kPackedBoneFloats + 4), xy23);
  }
#endif
  for (; i < n; ++i, out += kPackedBoneFloats) {
    out[0] = a[i], out[1] = c[i], out[2] = b[i], out[3] = d[i], out[4] = x[i], out[5] = y[i];
  }
}

std::vector<std::int32_t> rigid_bones(const SkeletonData& data) {
  std::vector<std::int32_t> bones(data.attachments.size(), -1);
  for (std::size_t k = 0; k < data.attachments.size(); ++k) {
    const AttachmentRecord& att = data.attachments[k];
    if (att.vertex_count == 0 || att.influence_count != att.vertex_count ||
        std::size_t{att.vertex_start} + att.vertex_count > data.vertices.size())
      continue;
    const VertexInfluences* v = data.vertices.data() + att.vertex_start;
    const std::uint32_t first = v[0].first;
    if (std::size_t{first} + att.vertex_count > data.influences.size()) continue;
    const std::int32_t bone = data.influences[first].bone;
    bool rigid = bone >= 0 && static_cast<std::size_t>(bone) < data.bones.size();
    for (std::uint32_t i = 0; i < att.vertex_count && rigid; ++i) {
      const Influence& in = data.influences[first + i];
      rigid = v[i].count == 1 && v[i].first == first + i && in.bone == bone && in.weight == 1.0f;
    }
    if (rigid) bones[k] = bone;
  }
  return bones;
}

#if defined(__SSE2__)

// With GCC on x86-64 Linux the loop is also compiled for AVX and the processor picks the clone when
// the program loads: the same operations in the same order (no fused multiply-add), so the same
// floats, in fewer instructions (three-operand forms, no register copies).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MF_AVX_CLONE __attribute__((target_clones("avx", "default")))
#else
#define MF_AVX_CLONE
#endif

namespace {

// (lx, ly) through the bone: (a·lx + b·ly + x, c·lx + d·ly + y) in the two low lanes.
inline __m128 transform(const float* bone, __m128 xxyy) {
  const __m128 columns = _mm_loadu_ps(bone);                     // a c b d
  const __m128 products = _mm_mul_ps(columns, xxyy);             // a·lx c·lx b·ly d·ly
  const __m128 sum = _mm_add_ps(products, _mm_movehl_ps(products, products));
  const __m128 translation = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(bone + 4)));
  return _mm_add_ps(sum, translation);
}

inline void store_pair(float* out, __m128 v) { _mm_store_sd(reinterpret_cast<double*>(out), _mm_castps_pd(v)); }

}  // namespace

// An influence is read with one 16-byte load: bone, weight, x, y.
static_assert(sizeof(Influence) == 16 && offsetof(Influence, weight) == 4 && offsetof(Influence, x) == 8 &&
              offsetof(Influence, y) == 12);

MF_AVX_CLONE
void write_world_vertices(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att,
                          std::int32_t rigid_bone, const float* packed_bones, float* out, std::size_t stride) {
  const SkeletonData& data = pose.data();
  const float* deform = attachment_deform(pose, slot, att);
  const VertexInfluences* vertices = data.vertices.data() + att.vertex_start;
  const Influence* influences = data.influences.data();
  const std::uint32_t count = att.vertex_count;
  auto bone_of = [packed_bones](const Influence& in) {
    return packed_bones + kPackedBoneFloats * static_cast<std::size_t>(in.bone);
  };
  if (deform) {
    std::uint32_t number = 0;  // influence number within the attachment: indexes its deform floats
    for (std::uint32_t i = 0; i < count; ++i, out += stride) {
      const VertexInfluences& v = vertices[i];
      __m128 sum = _mm_setzero_ps();
      for (std::uint32_t k = 0; k < v.count; ++k, ++number) {
        const Influence& in = influences[v.first + k];
        const float lx = in.x + deform[2 * number], ly = in.y + deform[2 * number + 1];
        const __m128 xxyy = _mm_set_ps(ly, ly, lx, lx);
        sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(in.weight), transform(bone_of(in), xxyy)));
      }
      store_pair(out, sum);
    }
    return;
  }
  if (rigid_bone >= 0) {
    // Every vertex on one bone with weight 1 (w·v = v): the bone is read once.
    const float* bone = packed_bones + kPackedBoneFloats * static_cast<std::size_t>(rigid_bone);
    const __m128 columns = _mm_loadu_ps(bone);  // a c b d
    const __m128 translation = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(bone + 4)));
    const Influence* in = influences + vertices[0].first;
    for (std::uint32_t i = 0; i < count; ++i, out += stride, ++in) {
      const __m128 xy = _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(&in->x)));
      const __m128 products = _mm_mul_ps(columns, _mm_unpacklo_ps(xy, xy));  // a·x c·x b·y d·y
      store_pair(out, _mm_add_ps(_mm_add_ps(products, _mm_movehl_ps(products, products)), translation));
    }
    return;
  }
  if (att.influence_count == count) {
    // One influence per vertex (weighted on one bone each).
    for (std::uint32_t i = 0; i < count; ++i, out += stride) {
      const Influence& in = influences[vertices[i].first];
      const __m128 q = _mm_loadu_ps(reinterpret_cast<const float*>(&in));  // bone weight x y
      const __m128 xxyy = _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 2, 2));
      const __m128 w = _mm_shuffle_ps(q, q, _MM_SHUFFLE(1, 1, 1, 1));
      store_pair(out, _mm_mul_ps(w, transform(bone_of(in), xxyy)));
    }
    return;
  }
  for (std::uint32_t i = 0; i < count; ++i, out += stride) {
    const VertexInfluences& v = vertices[i];
    const Influence* in = influences + v.first;
    __m128 sum = _mm_setzero_ps();
    for (const Influence* end = in + v.count; in != end; ++in) {
      const __m128 q = _mm_loadu_ps(reinterpret_cast<const float*>(in));  // bone weight x y
      const __m128 xxyy = _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 2, 2));
      const __m128 w = _mm_shuffle_ps(q, q, _MM_SHUFFLE(1, 1, 1, 1));
      sum = _mm_add_ps(sum, _mm_mul_ps(w, transform(bone_of(*in), xxyy)));
    }
    store_pair(out, sum);
  }
}

#else

void write_world_vertices(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att,
                          std::int32_t rigid_bone, const float* packed_bones, float* out, std::size_t stride) {
  const auto packed = [packed_bones](std::int32_t bone) {
    const float* m = packed_bones + kPackedBoneFloats * static_cast<std::size_t>(bone);
    return PackedBone{m[0], m[2], m[1], m[3], m[4], m[5]};
  };
  for_each_world_vertex(pose, slot, att, packed, [out, stride](std::uint32_t i, float x, float y) {
    out[i * stride] = x;
    out[i * stride + 1] = y;
  });
}

#endif

}  // namespace mf::skel::detail
