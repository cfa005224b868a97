#include "harness/plan_picture.h"

#include <algorithm>
#include <cstdio>

#include "harness/json_writer.h"

namespace slicefuzz {

std::string plan_text_picture(const ProgramInfo& info, const RewritePlan& rewrite,
                              const MemoryPlan& plan) {
  size_t name_width = 5;
  for (const TensorPlacement& t : plan.tensors)
    name_width = std::max(name_width, info.values[t.value].name.size());
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line, "  %-*s %10s %10s  ", static_cast<int>(name_width), "value",
                "offset", "nbytes");
  out += line;
  for (int s = 0; s <= plan.end_step; ++s) out += static_cast<char>('0' + s % 10);
  out += "  (steps: 0 = input, k+1 = op k, " + std::to_string(plan.end_step) + " = outputs)\n";
  for (const TensorPlacement& t : plan.tensors) {
    const bool alias = rewrite.is_alias(t.value);
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
             std::to_string(rewrite.delta_bytes[t.value]) + " bytes";
    else if (t.last_step > t.own_last_step)
      out += "  kept alive until step " + std::to_string(t.last_step) + " by its aliases";
    out += "\n";
  }
  return out;
}

std::string plan_svg(const std::string& title, const ProgramInfo& info,
                     const RewritePlan& rewrite, const MemoryPlan& plan) {
  const double left = 80, top = 40, width = 640, height = 360;
  const int steps = plan.end_step + 1;
  const double step_w = width / steps;
  const double bytes = std::max<int64_t>(plan.arena_bytes, 1);
  auto y_of = [&](int64_t b) { return top + height * static_cast<double>(b) / bytes; };
  char buf[1024];
  std::string s;
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"monospace\" font-size=\"11\">\n",
                static_cast<int>(left + width + 260), static_cast<int>(top + height + 60));
  s += buf;
  s += "<defs><pattern id=\"ext\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"6\" fill=\"#f4a261\"/>"
       "</pattern></defs>\n";
  std::string escaped = json_string(title);
  escaped = escaped.substr(1, escaped.size() - 2);
  for (auto [from, to] : {std::pair<std::string, std::string>{"<", "&lt;"}, {">", "&gt;"}})
    for (size_t p = escaped.find(from); p != std::string::npos; p = escaped.find(from, p + to.size()))
      escaped.replace(p, from.size(), to);
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"20\" font-size=\"13\">%s: arena %lld bytes</text>\n", left,
                escaped.c_str(), static_cast<long long>(plan.arena_bytes));
  s += buf;
  std::snprintf(buf, sizeof buf,
                "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
                "stroke=\"#999\"/>\n",
                left, top, width, height);
  s += buf;
  for (int st = 0; st < steps; ++st) {
    std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%d</text>\n",
                  left + (st + 0.5) * step_w, top + height + 15, st);
    s += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">program step (0 = input, %d = "
                "outputs)</text>\n<text x=\"10\" y=\"%g\">bytes</text>\n"
                "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">0</text>\n"
                "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%lld</text>\n",
                left + width / 2, top + height + 32, plan.end_step, top + height / 2, left - 4,
                top + 4, left - 4, top + height, static_cast<long long>(plan.arena_bytes));
  s += buf;
  // Roots first, aliases on top of them.
  for (int pass = 0; pass < 2; ++pass) {
    for (const TensorPlacement& t : plan.tensors) {
      const bool alias = rewrite.is_alias(t.value);
      if (alias != (pass == 1)) continue;
      const double x0 = left + t.first_step * step_w;
      const double y0 = y_of(t.offset);
      const double h = std::max(3.0, y_of(t.offset + t.nbytes) - y0);
      const double own_w = (t.own_last_step - t.first_step + 1) * step_w;
      const double full_w = (t.last_step - t.first_step + 1) * step_w;
      const std::string& name = info.values[t.value].name;
      if (alias) {
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#8ecae6\" "
                      "fill-opacity=\"0.6\" stroke=\"#023047\" stroke-dasharray=\"4 2\">"
                      "<title>%s: alias of %s +%lld bytes</title></rect>\n",
                      x0 + 2, y0 + 1, full_w - 4, std::max(1.0, h - 2), name.c_str(),
                      info.values[t.root].name.c_str(),
                      static_cast<long long>(rewrite.delta_bytes[t.value]));
      } else {
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#2a9d8f\" "
                      "stroke=\"#264653\"><title>%s: [%lld, %lld) steps %d..%d</title></rect>\n",
                      x0, y0, own_w, h, name.c_str(), static_cast<long long>(t.offset),
                      static_cast<long long>(t.offset + t.nbytes), t.first_step, t.last_step);
        s += buf;
        if (full_w > own_w) {
          std::snprintf(buf, sizeof buf,
                        "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"url(#ext)\" "
                        "stroke=\"#e76f51\"><title>%s kept alive by its aliases</title></rect>\n",
                        x0 + own_w, y0, full_w - own_w, h, name.c_str());
          s += buf;
        }
        buf[0] = '\0';
      }
      s += buf;
      std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" fill=\"#000\">%s</text>\n", x0 + 3,
                    y0 + std::min(h, 12.0) - 1, name.c_str());
      s += buf;
    }
  }
  std::snprintf(buf, sizeof buf,
                "<g transform=\"translate(%g,%g)\"><rect width=\"12\" height=\"10\" "
                "fill=\"#2a9d8f\"/><text x=\"16\" y=\"9\">tensor (own lifetime)</text>"
                "<rect y=\"16\" width=\"12\" height=\"10\" fill=\"url(#ext)\"/>"
                "<text x=\"16\" y=\"25\">lifetime extended by aliases</text>"
                "<rect y=\"32\" width=\"12\" height=\"10\" fill=\"#8ecae6\" "
                "stroke-dasharray=\"4 2\" stroke=\"#023047\"/>"
                "<text x=\"16\" y=\"41\">et_slice alias</text></g>\n</svg>\n",
                left + width + 10, top);
  s += buf;
  return s;
}

}  // namespace slicefuzz
