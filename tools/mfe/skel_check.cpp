#include "commands.hpp"

namespace mf::tools {

void add_skel_check(CLI::App&, int&) {}

}  // namespace mf::tools
