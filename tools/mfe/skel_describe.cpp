#include "commands.hpp"

namespace mf::tools {

void add_skel_describe(CLI::App&, int&) {}

}  // namespace mf::tools
