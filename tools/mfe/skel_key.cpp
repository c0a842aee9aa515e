#include "commands.hpp"

namespace mf::tools {

void add_skel_key(CLI::App&, int&) {}

}  // namespace mf::tools
