// COCO masks: counts, the compressed counts string, polygons and mask IoU; see
// include/assay/detection/mask.hpp.
#include "assay/detection/mask.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::detection {

namespace {

// Appends the interval [s, e) to a mask's runs, joining it to the last one when they touch.
void add_interval(mask& m, std::uint64_t s, std::uint64_t e) {
  if (e <= s) return;
  if (!m.on.empty() && m.on.back() == s) {
    m.on.back() = static_cast<std::uint32_t>(e);
  } else {
    m.on.push_back(static_cast<std::uint32_t>(s));
    m.on.push_back(static_cast<std::uint32_t>(e));
  }
}

// Area and bounding box from the runs.
void finish(mask& m) {
  m.area = 0;
  m.x0 = m.w, m.y0 = m.h, m.x1 = 0, m.y1 = 0;
  for (std::size_t i = 0; i < m.on.size(); i += 2) {
    const std::uint32_t s = m.on[i], e = m.on[i + 1] - 1;
    m.area += m.on[i + 1] - m.on[i];
    const std::uint32_t xs = s / m.h, xe = e / m.h;
    std::uint32_t ys = s % m.h, ye = e % m.h;
    if (xs != xe) ys = 0, ye = m.h - 1;  // the run wraps into the next column
    m.x0 = std::min(m.x0, xs), m.x1 = std::max(m.x1, xe);
    m.y0 = std::min(m.y0, ys), m.y1 = std::max(m.y1, ye);
  }
  if (m.area == 0) m.x0 = m.y0 = m.x1 = m.y1 = 0;
}

}  // namespace

mask mask_from_counts(const std::vector<std::uint32_t>& counts, std::uint32_t h, std::uint32_t w,
                      const std::string& where) {
  const std::uint64_t n = static_cast<std::uint64_t>(h) * w;
  if (n > 0xffffffffull) throw_data(fmt::format("{}: a {}x{} mask has more than 2^32 - 1 pixels", where, h, w));
  mask m;
  m.h = h, m.w = w;
  std::uint64_t pos = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::uint64_t next = pos + counts[i];
    if (next > n)
      throw_data(fmt::format("{}: the counts run past the {}x{} = {} pixels of the mask (count {} ends at pixel {})",
                             where, h, w, n, i, next));
    if (i % 2 == 1) add_interval(m, pos, next);
    pos = next;
  }
  if (pos != n)
    throw_data(fmt::format("{}: the counts sum to {}, not to height x width = {}x{} = {}", where, pos, h, w, n));
  finish(m);
  return m;
}

std::vector<std::uint32_t> mask_counts(const mask& m) {
  std::vector<std::uint32_t> c;
  std::uint32_t pos = 0;
  for (std::size_t i = 0; i < m.on.size(); i += 2) {
    c.push_back(m.on[i] - pos);
    c.push_back(m.on[i + 1] - m.on[i]);
    pos = m.on[i + 1];
  }
  const std::uint32_t n = m.h * m.w;
  if (pos < n || c.empty()) c.push_back(n - pos);
  return c;
}

std::string rle_encode(const std::vector<std::uint32_t>& counts) {
  std::string s;
  s.reserve(counts.size() * 2);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    std::int64_t x = counts[i];
    if (i > 2) x -= counts[i - 2];
    for (bool more = true; more;) {
      int c = static_cast<int>(x & 0x1f);
      x >>= 5;  // arithmetic: a negative difference stays negative
      more = (c & 0x10) ? x != -1 : x != 0;
      if (more) c |= 0x20;
      s.push_back(static_cast<char>(c + 48));
    }
  }
  return s;
}

std::vector<std::uint32_t> rle_decode(std::string_view s, const std::string& where) {
  std::vector<std::uint32_t> counts;
  std::size_t p = 0;
  while (p < s.size()) {
    const std::size_t start = p;
    std::int64_t x = 0;
    int k = 0;
    for (bool more = true; more; ++k) {
      if (p >= s.size())
        throw_data(fmt::format("{}: the counts string ends inside count {} (at character {})", where, counts.size(), p));
      const int c = static_cast<unsigned char>(s[p]) - 48;
      if (c < 0 || c > 63) {
        const auto byte = static_cast<unsigned char>(s[p]);
        const std::string shown = byte >= 32 && byte < 127 ? std::string(1, s[p]) : fmt::format("\\x{:02x}", byte);
        throw_data(fmt::format("{}: character {} of the counts string is '{}', outside '0'..'o'", where, p, shown));
      }
      if (k >= 7)
        throw_data(fmt::format("{}: count {} of the counts string (from character {}) needs more than 32 bits",
                               where, counts.size(), start));
      x |= static_cast<std::int64_t>(c & 0x1f) << (5 * k);
      more = (c & 0x20) != 0;
      ++p;
      if (!more && (c & 0x10)) x -= std::int64_t{1} << (5 * (k + 1));  // sign of the last chunk
    }
    if (counts.size() > 2) x += counts[counts.size() - 2];
    if (x < 0 || x > 0xffffffffll)
      throw_data(fmt::format("{}: count {} of the counts string (from character {}) is {}, outside 0..2^32 - 1", where,
                             counts.size(), start, x));
    counts.push_back(static_cast<std::uint32_t>(x));
  }
  return counts;
}

namespace {

// The pixel-column boundary points of one polygon, as linear indices x*h + y (pycocotools' frPoly):
// vertices are scaled by 5 and rounded, the closed boundary is walked one step at a time along its
// major axis, and wherever it moves to another upsampled column that is a pixel centre, the first
// pixel row at or below the boundary there is a point where the column switches on or off.
void polygon_points(const std::vector<double>& xy, std::uint32_t h, std::uint32_t w, std::vector<std::uint32_t>& out,
                    const std::string& where, std::size_t p) {
  const double scale = 5;
  const std::size_t k = xy.size() / 2;
  std::vector<int> x(k + 1), y(k + 1);
  for (std::size_t j = 0; j < k; ++j) {
    x[j] = static_cast<int>(scale * xy[2 * j] + .5);  // truncation toward zero, as C's (int) cast
    y[j] = static_cast<int>(scale * xy[2 * j + 1] + .5);
  }
  x[k] = x[0], y[k] = y[0];
  // The outline has one point per upsampled step along each edge's major axis; a vertex far outside
  // the image would make that walk (and its memory) enormous, so the length is bounded first.
  std::uint64_t steps = 0;
  for (std::size_t j = 0; j < k; ++j)
    steps += static_cast<std::uint64_t>(std::max(std::abs(static_cast<std::int64_t>(x[j]) - x[j + 1]),
                                                 std::abs(static_cast<std::int64_t>(y[j]) - y[j + 1]))) + 1;
  if (steps > (std::uint64_t{1} << 26))
    throw_data(fmt::format("{}: polygon {} has an outline of {} upsampled steps (more than 2^26); its vertices lie "
                           "far outside any image",
                           where, p, steps));
  std::vector<int> u, v;
  u.reserve(static_cast<std::size_t>(steps));
  v.reserve(static_cast<std::size_t>(steps));
  for (std::size_t j = 0; j < k; ++j) {
    int xs = x[j], xe = x[j + 1], ys = y[j], ye = y[j + 1];
    const int dx = std::abs(xe - xs), dy = std::abs(ys - ye);
    const bool flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) std::swap(xs, xe), std::swap(ys, ye);
    if (dx == 0 && dy == 0) {  // a repeated vertex: one point (its row is never read)
      u.push_back(xs), v.push_back(ys);
      continue;
    }
    if (dx >= dy) {
      const double sl = static_cast<double>(ye - ys) / dx;
      for (int d = 0; d <= dx; ++d) {
        const int t = flip ? dx - d : d;
        u.push_back(t + xs), v.push_back(static_cast<int>(ys + sl * t + .5));
      }
    } else {
      const double sl = static_cast<double>(xe - xs) / dy;
      for (int d = 0; d <= dy; ++d) {
        const int t = flip ? dy - d : d;
        v.push_back(t + ys), u.push_back(static_cast<int>(xs + sl * t + .5));
      }
    }
  }
  for (std::size_t j = 1; j < u.size(); ++j) {
    if (u[j] == u[j - 1]) continue;
    double xd = u[j] < u[j - 1] ? u[j] : u[j] - 1;
    xd = (xd + .5) / scale - .5;
    if (std::floor(xd) != xd || xd < 0 || xd > static_cast<double>(w) - 1) continue;
    double yd = v[j] < v[j - 1] ? v[j] : v[j - 1];
    yd = (yd + .5) / scale - .5;
    if (yd < 0) yd = 0;
    else if (yd > h) yd = h;
    yd = std::ceil(yd);
    out.push_back(static_cast<std::uint32_t>(static_cast<int>(xd) * static_cast<int>(h) + static_cast<int>(yd)));
  }
}

// Union of two masks of one size.
mask mask_union(const mask& a, const mask& b) {
  mask m;
  m.h = a.h, m.w = a.w;
  std::size_t i = 0, j = 0;
  while (i < a.on.size() || j < b.on.size()) {
    const bool take_a = j >= b.on.size() || (i < a.on.size() && a.on[i] <= b.on[j]);
    const std::uint32_t s = take_a ? a.on[i] : b.on[j], e = take_a ? a.on[i + 1] : b.on[j + 1];
    (take_a ? i : j) += 2;
    if (!m.on.empty() && s <= m.on.back()) m.on.back() = std::max(m.on.back(), e);
    else m.on.push_back(s), m.on.push_back(e);
  }
  finish(m);
  return m;
}

}  // namespace

mask mask_from_polygons(const std::vector<std::vector<double>>& polygons, std::uint32_t h, std::uint32_t w,
                        const std::string& where) {
  const std::uint64_t n = static_cast<std::uint64_t>(h) * w;
  if (n > 0x7fffffffull) throw_data(fmt::format("{}: a {}x{} image is too large for polygons", where, h, w));
  mask out;
  out.h = h, out.w = w;
  finish(out);
  std::vector<std::uint32_t> pts;
  for (std::size_t p = 0; p < polygons.size(); ++p) {
    const auto& xy = polygons[p];
    if (xy.size() < 6 || xy.size() % 2 != 0)
      throw_data(fmt::format("{}: polygon {} has {} numbers; a polygon needs at least 3 points (x, y pairs: 6 "
                             "numbers, an even count)",
                             where, p, xy.size()));
    for (std::size_t i = 0; i < xy.size(); ++i)
      if (!std::isfinite(xy[i]) || std::fabs(xy[i]) > 1e8)
        throw_data(fmt::format("{}: polygon {} coordinate {} is {}, not a finite pixel coordinate", where, p, i, xy[i]));
    pts.clear();
    polygon_points(xy, h, w, pts, where, p);
    std::sort(pts.begin(), pts.end());
    // Each point switches its column between off and on; a point listed twice switches twice.
    mask m;
    m.h = h, m.w = w;
    bool on = false;
    std::uint64_t start = 0;
    for (std::size_t i = 0; i < pts.size();) {
      std::size_t e = i;
      while (e < pts.size() && pts[e] == pts[i]) ++e;
      if ((e - i) % 2 == 1) {
        const std::uint64_t at = std::min<std::uint64_t>(pts[i], n);
        if (on) add_interval(m, start, at);
        else start = at;
        on = !on;
      }
      i = e;
    }
    if (on) add_interval(m, start, n);
    finish(m);
    out = p == 0 ? std::move(m) : mask_union(out, m);
  }
  return out;
}

double mask_iou(const mask& d, const mask& g, bool g_is_crowd) noexcept {
  if (d.area == 0 || g.area == 0) return 0.0;
  if (d.x1 < g.x0 || g.x1 < d.x0 || d.y1 < g.y0 || g.y1 < d.y0) return 0.0;
  std::uint64_t inter = 0;
  std::size_t i = 0, j = 0;
  const std::size_t na = d.on.size(), nb = g.on.size();
  while (i < na && j < nb) {
    const std::uint32_t s = std::max(d.on[i], g.on[j]);
    const std::uint32_t e = std::min(d.on[i + 1], g.on[j + 1]);
    if (s < e) inter += e - s;
    if (d.on[i + 1] < g.on[j + 1]) i += 2;
    else j += 2;
  }
  if (inter == 0) return 0.0;
  const std::uint64_t uni = g_is_crowd ? d.area : d.area + g.area - inter;
  return static_cast<double>(inter) / static_cast<double>(uni);
}

}  // namespace assay::detection
