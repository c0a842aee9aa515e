#include "commands.hpp"

namespace mf::tools {

void add_skel_fmt(CLI::App&, int&) {}

}  // namespace mf::tools
