#include "mf/imaging/image.hpp"

namespace mf::imaging {

Image Image::blank(int width, int height) {
  Image image;
  image.width = width > 0 ? width : 0;
  image.height = height > 0 ? height : 0;
  image.rgba.assign(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4, 0);
  return image;
}

}  // namespace mf::imaging
