#include "harness/export/plan_picture.h"

#include <algorithm>
#include <cstdio>

#include "harness/export/json_writer.h"

namespace slicefuzz {

namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string clip(const std::string& text, size_t n) {
  return text.size() <= n ? text : text.substr(0, n - 3) + "...";
}

std::string ranges_text(const PictureFailure& f) {
  std::string s;
  for (size_t i = 0; i < f.reads.size() && i < 8; ++i)
    s += (i ? " " : "") + std::string("[") + std::to_string(f.reads[i].first) + ", " +
         std::to_string(f.reads[i].second) + ")";
  if (f.reads.size() > 8 || f.reads_truncated) s += " ...";
  return s;
}

void text_rows(std::string& out, const ProgramInfo& info, const RewritePlan* rewrite,
               const MemoryPlan& plan, const PictureFailure* failure) {
  size_t name_width = 5;
  for (const TensorPlacement& t : plan.tensors)
    name_width = std::max(name_width, info.values[t.value].name.size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s %10s %10s  ", static_cast<int>(name_width), "value",
                "offset", "nbytes");
  out += line;
  for (int s = 0; s <= plan.end_step; ++s) out += static_cast<char>('0' + s % 10);
  out += std::string("  (steps: 0 = ") + (info.num_inputs > 1 ? "inputs" : "input") + ", k+1 = op k, " +
         std::to_string(plan.end_step) + " = outputs)\n";
  for (const TensorPlacement& t : plan.tensors) {
    const bool alias = rewrite && rewrite->is_alias(t.value);
    std::snprintf(line, sizeof line, "  %-*s %10lld %10lld  ", static_cast<int>(name_width),
                  info.values[t.value].name.c_str(), static_cast<long long>(t.offset),
                  static_cast<long long>(t.nbytes));
    out += line;
    for (int s = 0; s <= plan.end_step; ++s) {
      char c = ' ';
      if (s >= t.first_step && s <= t.last_step)
        c = alias ? '=' : s <= t.own_last_step ? '#' : '+';
      out += c;
    }
    if (alias)
      out += "  alias of '" + info.values[t.root].name + "' +" +
             std::to_string(rewrite->delta_bytes[t.value]) + " bytes";
    else if (t.last_step > t.own_last_step)
      out += "  kept alive until step " + std::to_string(t.last_step) + " by its aliases";
    if (failure && failure->value == t.value) out += "  <-- FAIL";
    out += "\n";
  }
}

}  // namespace

std::string plan_text_picture(const ProgramInfo& info, const RewritePlan& rewrite,
                              const MemoryPlan& plan, const MemoryPlan* copy_plan,
                              const PictureFailure* failure) {
  std::string out;
  text_rows(out, info, &rewrite, plan, failure);
  if (failure) {
    out += "  FAIL " + failure->label + "\n";
    if (failure->value >= 0 && !failure->reads.empty()) {
      const TensorPlacement* t = nullptr;
      for (const TensorPlacement& p : plan.tensors)
        if (p.value == failure->value) t = &p;
      if (t) {
        const int64_t delta = rewrite.delta_bytes[t->value];
        out += "  the " + failure->op_word + " reads bytes " + ranges_text(*failure) + " of '" +
               info.values[t->root].name + "' (" + std::to_string(failure->reads.size()) +
               " runs); the alias '" + info.values[t->value].name + "' claims [" +
               std::to_string(delta) + ", " + std::to_string(delta + t->nbytes) + ")" +
               (failure->executed_delta >= 0 && failure->executed_delta != delta
                    ? "; " + failure->alias_prim + " put it at [" + std::to_string(failure->executed_delta) + ", " +
                          std::to_string(failure->executed_delta + t->nbytes) + ")"
                    : "") +
               "\n";
      }
    }
  }
  if (copy_plan) {
    out += "\n  copy-only plan (no aliases): arena " + std::to_string(copy_plan->arena_bytes) +
           " bytes\n";
    text_rows(out, info, nullptr, *copy_plan, nullptr);
  }
  return out;
}

namespace {

struct Panel {
  double left, top, width, height;
  double bytes;  // the byte scale shared by both panels
  double y_of(int64_t b) const { return top + height * static_cast<double>(b) / bytes; }
};

// One plan in its panel: axes, then roots, then aliases on top of them.
void draw_plan(std::string& s, const Panel& p, const std::string& heading, const ProgramInfo& info,
               const RewritePlan* rewrite, const MemoryPlan& plan, const PictureFailure* failure) {
  char buf[1024];
  const int steps = plan.end_step + 1;
  const double step_w = p.width / steps;
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"%g\" font-size=\"12\">%s</text>\n"
                "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"#999\"/>\n",
                p.left, p.top - 6, xml_escape(heading).c_str(), p.left, p.top, p.width, p.height);
  s += buf;
  for (int st = 0; st < steps; ++st) {
    if (steps > 40 && st % 5 != 0 && st != steps - 1) continue;  // keep numbers apart
    std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%d</text>\n",
                  p.left + (st + 0.5) * step_w, p.top + p.height + 15, st);
    s += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">0</text>\n"
                "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%lld</text>\n",
                p.left - 4, p.top + 4, p.left - 4, p.y_of(plan.arena_bytes),
                static_cast<long long>(plan.arena_bytes));
  s += buf;
  for (int pass = 0; pass < 2; ++pass) {
    for (const TensorPlacement& t : plan.tensors) {
      const bool alias = rewrite && rewrite->is_alias(t.value);
      if (alias != (pass == 1)) continue;
      const double x0 = p.left + t.first_step * step_w;
      const double y0 = p.y_of(t.offset);
      const double h = std::max(3.0, p.y_of(t.offset + t.nbytes) - y0);
      const double own_w = (t.own_last_step - t.first_step + 1) * step_w;
      const double full_w = (t.last_step - t.first_step + 1) * step_w;
      const std::string name = xml_escape(info.values[t.value].name);
      const bool failing = failure && failure->value == t.value;
      if (alias) {
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#8ecae6\" "
                      "fill-opacity=\"0.6\" stroke=\"%s\" stroke-width=\"%d\" "
                      "stroke-dasharray=\"4 2\"><title>%s: alias of %s +%lld bytes</title></rect>\n",
                      x0 + 2, y0 + 1, full_w - 4, std::max(1.0, h - 2),
                      failing ? "#d00000" : "#023047", failing ? 2 : 1, name.c_str(),
                      xml_escape(info.values[t.root].name).c_str(),
                      static_cast<long long>(rewrite->delta_bytes[t.value]));
        s += buf;
      } else {
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#2a9d8f\" "
                      "stroke=\"%s\"><title>%s: [%lld, %lld) steps %d..%d</title></rect>\n",
                      x0, y0, own_w, h, failing ? "#d00000" : "#264653", name.c_str(),
                      static_cast<long long>(t.offset),
                      static_cast<long long>(t.offset + t.nbytes), t.first_step, t.last_step);
        s += buf;
        if (full_w > own_w) {
          std::snprintf(buf, sizeof buf,
                        "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"url(#ext)\" "
                        "stroke=\"#e76f51\"><title>%s kept alive by its aliases</title></rect>\n",
                        x0 + own_w, y0, full_w - own_w, h, name.c_str());
          s += buf;
        }
      }
      if (failing) {
        // What the slice really reads inside the root: one band per contiguous
        // run, so a step-2 slice shows its gaps next to the one block it claimed.
        const int64_t root_offset = t.offset - (rewrite ? rewrite->delta_bytes[t.value] : 0);
        s += "<g class=\"failure-reads\">\n";
        for (const auto& [b, e] : failure->reads) {
          const double ry = p.y_of(root_offset + b);
          std::snprintf(buf, sizeof buf,
                        "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"url(#bad)\" "
                        "stroke=\"#d00000\" stroke-width=\"0.5\"><title>the %s reads bytes "
                        "[%lld, %lld) of its root</title></rect>\n",
                        x0 + full_w * 0.5, ry, full_w * 0.5 - 2,
                        std::max(1.0, p.y_of(root_offset + e) - ry), failure->op_word.c_str(),
                        static_cast<long long>(b),
                        static_cast<long long>(e));
          s += buf;
        }
        const int64_t delta = rewrite ? rewrite->delta_bytes[t.value] : 0;
        if (failure->executed_delta >= 0 && failure->executed_delta != delta) {
          const double ey = p.y_of(root_offset + failure->executed_delta);
          std::snprintf(buf, sizeof buf,
                        "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
                        "stroke=\"#d00000\" stroke-width=\"2\"><title>where %s put the "
                        "alias: +%lld bytes</title></rect>\n",
                        x0 + 1, ey, full_w - 2,
                        std::max(2.0, p.y_of(root_offset + failure->executed_delta + t.nbytes) - ey),
                        failure->alias_prim.c_str(), static_cast<long long>(failure->executed_delta));
          s += buf;
        }
        std::snprintf(buf, sizeof buf,
                      "</g>\n<text class=\"failure-mark\" x=\"%g\" y=\"%g\" fill=\"#d00000\" "
                      "font-weight=\"bold\">FAIL</text>\n",
                      x0 + full_w + 3, y0 + std::min(h, 12.0) - 1);
        s += buf;
      }
      std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" fill=\"#000\">%s</text>\n", x0 + 3,
                    y0 + std::min(h, 12.0) - 1, name.c_str());
      s += buf;
    }
  }
}

}  // namespace

std::string plan_svg(const std::string& title, const ProgramInfo& info,
                     const RewritePlan& rewrite, const MemoryPlan& plan,
                     const MemoryPlan* copy_plan, const PictureFailure* failure,
                     const std::string& alias_legend) {
  const double left = 80, top = failure ? 76 : 56, height = 360;
  const double main_w = copy_plan ? 560 : 640, copy_w = 300, gap = 70;
  const double total_w = left + main_w + (copy_plan ? gap + copy_w : 0) + 30;
  const double legend_y = top + height + 40;
  const int64_t scale = std::max<int64_t>(
      {plan.arena_bytes, copy_plan ? copy_plan->arena_bytes : 0, int64_t{1}});
  char buf[1024];
  std::string s;
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"monospace\" font-size=\"11\">\n",
                static_cast<int>(total_w), static_cast<int>(legend_y + 70));
  s += buf;
  s += "<defs><pattern id=\"ext\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"6\" fill=\"#f4a261\"/>"
       "</pattern><pattern id=\"bad\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(-45)\"><rect width=\"2\" height=\"4\" fill=\"#d00000\"/>"
       "</pattern></defs>\n";
  std::string t = json_string(title);
  std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"18\" font-size=\"13\">%s</text>\n", left,
                xml_escape(t.substr(1, t.size() - 2)).c_str());
  s += buf;
  if (failure) {
    std::snprintf(buf, sizeof buf,
                  "<g id=\"failure\"><text x=\"%g\" y=\"38\" fill=\"#d00000\" font-size=\"12\" "
                  "font-weight=\"bold\">FAIL %s<title>%s</title></text></g>\n",
                  left, xml_escape(clip(failure->label, 110)).c_str(),
                  xml_escape(failure->label).c_str());
    s += buf;
  }
  const Panel main{left, top, main_w, height, static_cast<double>(scale)};
  draw_plan(s, main, "with the rewrite: arena " + std::to_string(plan.arena_bytes) + " bytes",
            info, &rewrite, plan, failure);
  if (copy_plan) {
    const Panel copy{left + main_w + gap, top, copy_w, height, static_cast<double>(scale)};
    std::string heading = "copy-only: arena " + std::to_string(copy_plan->arena_bytes) + " bytes";
    if (plan.arena_bytes > copy_plan->arena_bytes) heading += " (the rewrite grew it)";
    draw_plan(s, copy, heading, info, nullptr, *copy_plan, nullptr);
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">program step (0 = %s, %d = "
                "outputs)</text>\n<text x=\"10\" y=\"%g\">bytes</text>\n",
                left + main_w / 2, top + height + 30, info.num_inputs > 1 ? "inputs" : "input",
                plan.end_step, top + height / 2);
  s += buf;
  std::snprintf(buf, sizeof buf,
                "<g transform=\"translate(%g,%g)\"><rect width=\"12\" height=\"10\" "
                "fill=\"#2a9d8f\"/><text x=\"16\" y=\"9\">tensor (own lifetime)</text>"
                "<rect x=\"200\" width=\"12\" height=\"10\" fill=\"url(#ext)\"/>"
                "<text x=\"216\" y=\"9\">lifetime extended by aliases</text>"
                "<rect y=\"18\" width=\"12\" height=\"10\" fill=\"#8ecae6\" "
                "stroke-dasharray=\"4 2\" stroke=\"#023047\"/>"
                "<text x=\"16\" y=\"27\">%s (the block it claims)</text>"
                "<rect x=\"300\" y=\"18\" width=\"12\" height=\"10\" fill=\"url(#bad)\"/>"
                "<text x=\"316\" y=\"27\">what the failing %s really reads</text></g>\n</svg>\n",
                left, legend_y, alias_legend.c_str(), failure ? failure->op_word.c_str() : "slice");
  s += buf;
  return s;
}

}  // namespace slicefuzz
