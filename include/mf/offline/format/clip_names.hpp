#pragma once
// Clip names and the files that hold them. A clip's name is its path inside the rig's clips folder
// without ".manim": <rig>.clips/emotes/angry.manim is clip "emotes/angry". Names may hold any byte;
// what a file system refuses is escaped by one reversible rule (docs/format-manim.md, "Clip names"):
//
//   - "/" separates folders. A "/" that would leave a folder or file name empty (at the start or the
//     end of the name, or right after a separating "/") is written "%2F" instead.
//   - In each folder or file name, "%XX" (two upper-case hex digits) stands for: "%" itself; the bytes
//     \ : * ? " < > |; control bytes 0x00–0x1F and 0x7F; a space or "." that begins or ends the
//     name (so "." and ".." never occur); and the first byte of a name whose part before its first
//     "." is a reserved Windows device name (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, any case).
//   - Every other byte (UTF-8 included) is written as it is.
//
// Reading undoes the rule; a file name that is not exactly what the rule writes for its name (a "%"
// without two hex digits, lower-case hex, an escape of a byte that needs none) is not a clip file.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mf::offline {

// The file path for a clip, relative to the clips folder, with "/" separators and without ".manim".
// An empty name has no file: the result is empty.
std::string clip_file_stem(std::string_view name);

// The clip name of a file path relative to the clips folder ("/" separators, without ".manim"), or
// nullopt with `why` set when the path is not what clip_file_stem writes for any name.
std::optional<std::string> clip_name_of(std::string_view stem, std::string* why = nullptr);

// Two names whose files (or folders) would be the same on a file system that ignores case (ASCII
// letters), or that would need one path as both a folder and a file: the first such pair, in the
// order given, or nullopt.
std::optional<std::pair<std::string, std::string>> clip_name_conflict(const std::vector<std::string>& names);

}  // namespace mf::offline
