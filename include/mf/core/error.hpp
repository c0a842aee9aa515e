#pragma once
// Errors for user data: where in which file, and what is wrong.

#include <string>

namespace mf {

// A 1-based position in a text file. Zero means unknown.
struct TextPosition {
  int line = 0;
  int column = 0;

  bool known() const { return line > 0; }
};

// One problem found in user data. `to_string()` gives the form every tool prints:
//   file:line:column: path: message
// where each of file, position and path is left out when unknown.
struct Error {
  std::string file;      // the file the problem is in, as the user named it
  std::string path;      // JSON path of the offending value, e.g. "bones[4].parent"
  TextPosition position; // where the offending value starts
  std::string message;   // what is wrong, in one sentence without a trailing period

  std::string to_string() const;
};

}  // namespace mf
