// The Output panel: what `mfe skel check` finds for the rig (and any reading or build error), one row
// per finding; a click selects the bone or slot the finding names.

#include <string>

#include "finding_target.hpp"
#include "panels.hpp"
#include "ui_widgets.hpp"

namespace mf::editor {
namespace {

const ImVec4 kErrorText{1.0f, 0.45f, 0.42f, 1};
const ImVec4 kWarningText{1.0f, 0.82f, 0.35f, 1};

}  // namespace

void output_panel(EditorState& state, const ScreenRect& rect) {
  if (ui::begin_panel(state.registry, "Output", rect)) {
    const std::vector<offline::Finding>& findings = state.rig.findings;
    std::size_t errors = 0;
    for (const offline::Finding& f : findings) errors += f.severity == offline::Severity::Error ? 1 : 0;
    if (state.rig.path.empty()) ImGui::TextDisabled("No rig open");
    else if (findings.empty()) ImGui::TextDisabled("%s: check found nothing", state.rig.path.c_str());
    else
      ImGui::TextDisabled("%s: %zu errors, %zu warnings", state.rig.path.c_str(), errors, findings.size() - errors);
    for (std::size_t i = 0; i < findings.size(); ++i) {
      const offline::Finding& f = findings[i];
      const bool error = f.severity == offline::Severity::Error;
      const Selection target = state.source() ? finding_target(f, *state.source()) : Selection{};
      const std::string text = std::string(error ? "error: " : "warning: ") + f.error.to_string();
      const std::string id = "finding" + std::to_string(i);
      ImGui::PushStyleColor(ImGuiCol_Text, error ? kErrorText : kWarningText);
      const bool clicked =
          ui::selectable(state.registry, id.c_str(), text, "finding " + std::to_string(i + 1), !target.empty() && target == state.selection);
      ImGui::PopStyleColor();
      if (!target.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("Click to select %s", describe(target, *state.source()).c_str());
      if (clicked && !target.empty()) state.select(target, false);
    }
  }
  ui::end_panel(state.registry);
}

}  // namespace mf::editor
