#include "mf/editor/core/commands/event_commands.hpp"

#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/validate.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }
bool valid_event(const SkeletonSource& s, int i) { return i >= 0 && at(i) < s.events.size(); }
Unexpected no_event(int i) { return edit_error("there is no event at index " + std::to_string(i)); }

const FieldGroup<EventDef> kEventGroups[] = {
    {"Set int value of", [](const EventDef& a, const EventDef& b) { return a.int_value != b.int_value; }},
    {"Set float value of", [](const EventDef& a, const EventDef& b) { return a.float_value != b.float_value; }},
    {"Set string value of", [](const EventDef& a, const EventDef& b) { return a.string_value != b.string_value; }},
    {"Set audio of", [](const EventDef& a, const EventDef& b) { return a.audio != b.audio; }},
    {"Set volume of", [](const EventDef& a, const EventDef& b) { return a.volume != b.volume; }},
    {"Set balance of", [](const EventDef& a, const EventDef& b) { return a.balance != b.balance; }},
};

}  // namespace

EventDef* EventTraits::find(SkeletonSource& s, int event) { return valid_event(s, event) ? &s.events[at(event)] : nullptr; }
const EventDef* EventTraits::find(const SkeletonSource& s, int event) {
  return valid_event(s, event) ? &s.events[at(event)] : nullptr;
}
std::string EventTraits::noun(const SkeletonSource&, int, const EventDef& v) { return "event " + quoted(v.name); }
std::span<const FieldGroup<EventDef>> EventTraits::groups() { return kEventGroups; }

Status EventTraits::validate(const Document&, int, const EventDef& before, const EventDef& after) {
  if (after.name != before.name) return edit_error("event " + quoted(before.name) + ": rename it with RenameEvent");
  return validate_event(after);
}

Status CreateEvent::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  const auto taken = [&](std::string_view n) { return s.find_event(n) >= 0; };
  if (event_.name.empty()) event_.name = unique_name("event", taken);
  if (Status st = check_name("event", event_.name, "", taken); !st) return st;
  if (Status st = validate_event(event_); !st) return st;
  s.events.push_back(event_);
  set_name("Create event " + quoted(event_.name));
  return {};
}

Status DeleteEvent::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_event(s, event_)) return no_event(event_);
  const std::string name = s.events[at(event_)].name;
  s.events.erase(s.events.begin() + event_);
  for (ClipSource& clip : model.clips) remove_event(clip, name);
  set_name("Delete event " + quoted(name));
  return {};
}

Status RenameEvent::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_event(s, event_)) return no_event(event_);
  const std::string old = s.events[at(event_)].name;
  if (Status st = check_name("event", name_, old, [&](std::string_view n) { return s.find_event(n) >= 0; }); !st) return st;
  s.events[at(event_)].name = name_;
  for (ClipSource& clip : model.clips) rename_event(clip, old, name_);
  set_name("Rename event " + quoted(old) + " to " + quoted(name_));
  add_rename({EventId{old}, EventId{name_}});
  return {};
}

}  // namespace mf::editor
