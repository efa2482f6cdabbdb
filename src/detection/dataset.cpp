// Reading detection sets from COCO JSON and CSV; see include/assay/detection/dataset.hpp.
#include "assay/detection/dataset.hpp"
#include "assay/metrics/labels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay::detection {

namespace {

using json = nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_io(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw_io(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  return ss.str();
}

json parse_json(const std::string& text, const std::string& name) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    if (auto p = msg.find("] "); p != std::string::npos) msg = msg.substr(p + 2);
    throw_data(fmt::format("{}: malformed JSON at byte {}: {}", name, e.byte, msg));
  }
}

std::string show(const json& j) {
  std::string s = j.dump();
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  return s;
}

// Ids are integers or strings; integers sort numerically, strings as text (pycocotools sorts ids).
struct id_key {
  bool numeric = false;
  std::int64_t n = 0;
  std::string text;
};

id_key read_id(const json& j, const std::string& where, const char* field) {
  id_key k;
  if (j.is_number_integer() || j.is_number_unsigned()) {
    k.numeric = true;
    k.n = j.get<std::int64_t>();
    k.text = std::to_string(k.n);
  } else if (j.is_number_float() && std::isfinite(j.get<double>()) && std::floor(j.get<double>()) == j.get<double>() &&
             std::fabs(j.get<double>()) < 9e15) {
    k.numeric = true;
    k.n = static_cast<std::int64_t>(j.get<double>());
    k.text = std::to_string(k.n);
  } else if (j.is_string()) {
    k.text = j.get<std::string>();
  } else {
    throw_data(fmt::format("{}: field '{}' must be an integer or a string, got {}", where, field, show(j)));
  }
  return k;
}

// Assigns ascending indices to a set of ids.
struct id_index {
  std::vector<id_key> keys;
  std::unordered_map<std::string, std::size_t> pos;
  void add(const id_key& k) {
    if (pos.emplace(k.text, keys.size()).second) keys.push_back(k);
  }
  // Sorts and returns the old->new permutation.
  void finish(const std::string& what, const std::string& source) {
    const bool all_num = std::all_of(keys.begin(), keys.end(), [](const id_key& k) { return k.numeric; });
    const bool any_num = std::any_of(keys.begin(), keys.end(), [](const id_key& k) { return k.numeric; });
    if (any_num && !all_num)
      throw_data(fmt::format("{}: {} ids mix numbers and strings; use one kind", source, what));
    std::sort(keys.begin(), keys.end(), [&](const id_key& a, const id_key& b) {
      return all_num ? a.n < b.n : a.text < b.text;
    });
    pos.clear();
    for (std::size_t i = 0; i < keys.size(); ++i) pos.emplace(keys[i].text, i);
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (auto& k : keys) v.push_back(k.text);
    return v;
  }
};

double read_number(const json& obj, const char* field, const std::string& where) {
  auto it = obj.find(field);
  if (it == obj.end()) throw_data(fmt::format("{}: missing field '{}'", where, field));
  if (!it->is_number()) throw_data(fmt::format("{}: field '{}' must be a number, got {}", where, field, show(*it)));
  const double v = it->get<double>();
  if (!std::isfinite(v)) throw_data(fmt::format("{}: field '{}' is not finite", where, field));
  return v;
}

bool read_flag(const json& obj, const char* field, const std::string& where) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_number()) {
    const double v = it->get<double>();
    if (v == 0 || v == 1) return v == 1;
  }
  throw_data(fmt::format("{}: field '{}' must be 0 or 1, got {}", where, field, show(*it)));
}

box_xywh read_bbox(const json& obj, const std::string& where) {
  auto it = obj.find("bbox");
  if (it == obj.end()) throw_data(fmt::format("{}: missing field 'bbox'", where));
  if (!it->is_array() || it->size() != 4)
    throw_data(fmt::format("{}: field 'bbox' must be [x, y, width, height], got {}", where, show(*it)));
  double v[4];
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& e = (*it)[i];
    if (!e.is_number() || !std::isfinite(e.get<double>()))
      throw_data(fmt::format("{}: bbox[{}] must be a finite number, got {}", where, i, show(e)));
    v[i] = e.get<double>();
  }
  if (v[2] < 0) throw_data(fmt::format("{}: bbox width is negative ({})", where, v[2]));
  if (v[3] < 0) throw_data(fmt::format("{}: bbox height is negative ({})", where, v[3]));
  return {v[0], v[1], v[2], v[3]};
}

// An image's mask size (height, width); 0 while unknown (no size in 'images' and no mask seen yet).
struct image_size {
  std::uint32_t h = 0, w = 0;
  bool from_images = false;
};

std::uint32_t read_size_number(const json& j, const std::string& where, const char* field) {
  if (!(j.is_number_integer() || j.is_number_unsigned()) || j.get<std::int64_t>() < 0 ||
      j.get<std::int64_t>() > 0xffffffffll)
    throw_data(fmt::format("{}: field '{}' must be a whole number of pixels, got {}", where, field, show(j)));
  return static_cast<std::uint32_t>(j.get<std::int64_t>());
}

// Reads "segmentation": RLE {size: [h, w], counts: string or array} or a list of polygons; checks the
// size against the image's and fixes the image's size when it had none.
mask read_segmentation(const json& obj, const std::string& where, image_size& im, const std::string& image_where) {
  auto it = obj.find("segmentation");
  if (it == obj.end() || it->is_null()) throw_data(fmt::format("{}: missing field 'segmentation'", where));
  const json& s = *it;
  if (s.is_array()) {
    if (s.empty()) throw_data(fmt::format("{}: field 'segmentation' is an empty list of polygons", where));
    if (im.h == 0 && im.w == 0 && !im.from_images)
      throw_data(fmt::format("{}: 'segmentation' holds polygons but {} has no 'height' and 'width' to draw them on",
                             where, image_where));
    std::vector<std::vector<double>> polys;
    for (std::size_t p = 0; p < s.size(); ++p) {
      if (!s[p].is_array())
        throw_data(fmt::format("{}: segmentation[{}] must be a polygon [x0, y0, x1, y1, ...], got {}", where, p,
                               show(s[p])));
      std::vector<double> xy;
      for (std::size_t i = 0; i < s[p].size(); ++i) {
        if (!s[p][i].is_number())
          throw_data(fmt::format("{}: segmentation[{}][{}] must be a number, got {}", where, p, i, show(s[p][i])));
        xy.push_back(s[p][i].get<double>());
      }
      polys.push_back(std::move(xy));
    }
    return mask_from_polygons(polys, im.h, im.w, where + ": segmentation");
  }
  if (!s.is_object() || !s.contains("size") || !s.contains("counts"))
    throw_data(fmt::format("{}: field 'segmentation' must be RLE {{size: [h, w], counts}} or a list of polygons, got {}",
                           where, show(s)));
  const json& size = s["size"];
  if (!size.is_array() || size.size() != 2)
    throw_data(fmt::format("{}: segmentation.size must be [height, width], got {}", where, show(size)));
  const std::uint32_t h = read_size_number(size[0], where, "segmentation.size[0]");
  const std::uint32_t w = read_size_number(size[1], where, "segmentation.size[1]");
  if (im.from_images || im.h != 0 || im.w != 0) {
    if (h != im.h || w != im.w)
      throw_data(fmt::format("{}: segmentation.size is [{}, {}] but {} is {} x {} (height x width)", where, h, w,
                             image_where, im.h, im.w));
  } else {
    im.h = h, im.w = w;
  }
  const json& c = s["counts"];
  std::vector<std::uint32_t> counts;
  if (c.is_string()) {
    counts = rle_decode(c.get_ref<const std::string&>(), where + ": segmentation.counts");
  } else if (c.is_array()) {
    counts.reserve(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
      // Whole numbers, also when written as 12.0 (numpy arrays dumped as floats).
      const double v = c[i].is_number() ? c[i].get<double>() : -1;
      if (!(v >= 0 && v <= 4294967295.0 && std::floor(v) == v))
        throw_data(fmt::format("{}: segmentation.counts[{}] must be a whole number from 0 to 2^32 - 1, got {}", where,
                               i, show(c[i])));
      counts.push_back(static_cast<std::uint32_t>(v));
    }
  } else {
    throw_data(fmt::format("{}: segmentation.counts must be a string (compressed RLE) or an array, got {}", where,
                           show(c)));
  }
  return mask_from_counts(counts, h, w, where + ": segmentation.counts");
}

std::vector<double> read_keypoints(const json& obj, const std::string& where, std::size_t k) {
  auto it = obj.find("keypoints");
  if (it == obj.end()) throw_data(fmt::format("{}: missing field 'keypoints'", where));
  if (!it->is_array() || it->size() != 3 * k)
    throw_data(fmt::format("{}: field 'keypoints' must hold {} numbers (x, y, v for each of {} keypoints), got {}",
                           where, 3 * k, k, it->is_array() ? fmt::format("{} numbers", it->size()) : show(*it)));
  std::vector<double> v(3 * k);
  for (std::size_t i = 0; i < 3 * k; ++i) {
    const auto& e = (*it)[i];
    if (!e.is_number() || !std::isfinite(e.get<double>()))
      throw_data(fmt::format("{}: keypoints[{}] must be a finite number, got {}", where, i, show(e)));
    v[i] = e.get<double>();
  }
  return v;
}

}  // namespace

const char* iou_type_name(iou_type t) noexcept {
  switch (t) {
    case iou_type::segm: return "segm";
    case iou_type::keypoints: return "keypoints";
    default: return "bbox";
  }
}

dataset parse_coco(const std::string& gt_json, const std::string& dt_json, const std::string& gt_name,
                   const std::string& dt_name, const coco_read_options& opts) {
  const iou_type type = opts.type;
  if (type == iou_type::keypoints && opts.keypoints == 0)
    throw_usage("parse_coco: keypoints per object must be at least 1");
  const json gt = parse_json(gt_json, gt_name);
  const json dt = parse_json(dt_json, dt_name);
  if (!gt.is_object()) throw_data(fmt::format("{}: a COCO ground-truth file must be a JSON object", gt_name));
  for (const char* f : {"images", "annotations"})
    if (!gt.contains(f) || !gt[f].is_array())
      throw_data(fmt::format("{}: missing array '{}' (a COCO ground-truth file)", gt_name, f));
  if (!dt.is_array())
    throw_data(fmt::format("{}: a COCO results file must be a JSON array of detections", dt_name));

  id_index images, cats;
  std::unordered_map<std::string, std::string> cat_names;
  std::unordered_map<std::string, std::pair<image_size, std::string>> sizes;  // by image id (segm)
  for (std::size_t i = 0; i < gt["images"].size(); ++i) {
    const auto& im = gt["images"][i];
    const std::string where = fmt::format("{}: images[{}]", gt_name, i);
    if (!im.is_object() || !im.contains("id")) throw_data(where + ": missing field 'id'");
    const id_key k = read_id(im["id"], where, "id");
    images.add(k);
    if (type == iou_type::segm) {
      image_size z;
      if (im.contains("height") && im.contains("width")) {
        z.h = read_size_number(im["height"], where, "height");
        z.w = read_size_number(im["width"], where, "width");
        z.from_images = true;
      }
      sizes.emplace(k.text, std::pair{z, where});
    }
  }
  const bool has_cats = gt.contains("categories") && gt["categories"].is_array();
  if (has_cats)
    for (std::size_t i = 0; i < gt["categories"].size(); ++i) {
      const auto& c = gt["categories"][i];
      const std::string where = fmt::format("{}: categories[{}]", gt_name, i);
      if (!c.is_object() || !c.contains("id")) throw_data(where + ": missing field 'id'");
      const id_key k = read_id(c["id"], where, "id");
      cats.add(k);
      if (c.contains("name") && c["name"].is_string()) cat_names[k.text] = c["name"].get<std::string>();
    }
  const auto& anns = gt["annotations"];
  if (!has_cats)
    for (std::size_t i = 0; i < anns.size(); ++i) {
      const std::string where = fmt::format("{}: annotations[{}]", gt_name, i);
      if (!anns[i].is_object() || !anns[i].contains("category_id")) throw_data(where + ": missing field 'category_id'");
      cats.add(read_id(anns[i]["category_id"], where, "category_id"));
    }
  images.finish("image", gt_name);
  cats.finish("category", gt_name);

  dataset d;
  d.images = images.names();
  d.categories = cats.names();
  for (auto& c : d.categories) d.category_names.push_back(cat_names.count(c) ? cat_names[c] : c);

  auto lookup = [](const id_index& ix, const id_key& k, const std::string& where, const char* field,
                   const std::string& in) {
    auto it = ix.pos.find(k.text);
    if (it == ix.pos.end()) throw_data(fmt::format("{}: {} {} is not in the ground truth {}", where, field, k.text, in));
    return it->second;
  };
  d.truths.reserve(anns.size());
  for (std::size_t i = 0; i < anns.size(); ++i) {
    const auto& a = anns[i];
    const std::string where = fmt::format("{}: annotations[{}]", gt_name, i);
    if (!a.is_object()) throw_data(where + ": must be an object");
    ground_truth t;
    if (!a.contains("image_id")) throw_data(where + ": missing field 'image_id'");
    if (!a.contains("category_id")) throw_data(where + ": missing field 'category_id'");
    t.image = lookup(images, read_id(a["image_id"], where, "image_id"), where, "image_id", "'images'");
    t.category = lookup(cats, read_id(a["category_id"], where, "category_id"), where, "category_id", "'categories'");
    if (type != iou_type::segm || a.contains("bbox")) t.box = read_bbox(a, where);
    double default_area = t.box.w * t.box.h;
    if (type == iou_type::segm) {
      auto& [size, image_where] = sizes.at(d.images[t.image]);
      t.segm = read_segmentation(a, where, size, image_where);
      default_area = static_cast<double>(t.segm.area);
    } else if (type == iou_type::keypoints) {
      t.keypoints = read_keypoints(a, where, opts.keypoints);
      for (std::size_t j = 2; j < t.keypoints.size(); j += 3) t.num_keypoints += t.keypoints[j] > 0;
      if (a.contains("num_keypoints")) {
        const auto& nk = a["num_keypoints"];
        if (!(nk.is_number_integer() || nk.is_number_unsigned()) || nk.get<std::int64_t>() < 0)
          throw_data(fmt::format("{}: field 'num_keypoints' must be a whole number >= 0, got {}", where, show(nk)));
        t.num_keypoints = static_cast<std::size_t>(nk.get<std::int64_t>());
      }
    }
    t.area = a.contains("area") ? read_number(a, "area", where) : default_area;
    if (t.area < 0) throw_data(fmt::format("{}: field 'area' is negative ({})", where, t.area));
    t.crowd = read_flag(a, "iscrowd", where);
    t.difficult = read_flag(a, "difficult", where);
    if (a.contains("id")) {
      if (!a["id"].is_number_integer()) throw_data(fmt::format("{}: field 'id' must be an integer, got {}", where, show(a["id"])));
      t.id = a["id"].get<std::int64_t>();
    } else {
      t.id = static_cast<std::int64_t>(i) + 1;
    }
    d.truths.push_back(t);
  }
  d.detections.reserve(dt.size());
  for (std::size_t i = 0; i < dt.size(); ++i) {
    const auto& r = dt[i];
    const std::string where = fmt::format("{}: [{}]", dt_name, i);
    if (!r.is_object()) throw_data(where + ": a detection must be an object");
    if (!r.contains("image_id")) throw_data(where + ": missing field 'image_id'");
    if (!r.contains("category_id")) throw_data(where + ": missing field 'category_id'");
    detection x;
    x.image = lookup(images, read_id(r["image_id"], where, "image_id"), where, "image_id", "file " + gt_name);
    x.category = lookup(cats, read_id(r["category_id"], where, "category_id"), where, "category_id", "file " + gt_name);
    if (type == iou_type::bbox || r.contains("bbox")) x.box = read_bbox(r, where);
    x.area = x.box.w * x.box.h;
    if (type == iou_type::segm) {
      auto& [size, image_where] = sizes.at(d.images[x.image]);
      x.segm = read_segmentation(r, where, size, image_where);
      x.area = static_cast<double>(x.segm.area);
    } else if (type == iou_type::keypoints) {
      x.keypoints = read_keypoints(r, where, opts.keypoints);
      double lo_x = x.keypoints[0], hi_x = lo_x, lo_y = x.keypoints[1], hi_y = lo_y;
      for (std::size_t j = 0; j < x.keypoints.size(); j += 3) {
        lo_x = std::min(lo_x, x.keypoints[j]), hi_x = std::max(hi_x, x.keypoints[j]);
        lo_y = std::min(lo_y, x.keypoints[j + 1]), hi_y = std::max(hi_y, x.keypoints[j + 1]);
      }
      x.area = (hi_x - lo_x) * (hi_y - lo_y);
    }
    x.score = read_number(r, "score", where);
    d.detections.push_back(x);
  }
  return d;
}

dataset read_coco(const std::string& gt_path, const std::string& dt_path, const coco_read_options& opts) {
  return parse_coco(slurp(gt_path), slurp(dt_path), gt_path, dt_path, opts);
}

namespace {

bool has_column(const std::vector<std::string>& header, const std::string& name) {
  return std::find(header.begin(), header.end(), name) != header.end();
}

struct csv_boxes {
  io::table t;
  std::vector<std::string> image, cls;
  std::vector<box_xywh> boxes;
  int score = -1, crowd = -1, difficult = -1, area = -1;
};

csv_boxes read_box_csv(const std::string& path, bool xyxy, bool with_score) {
  io::csv_reader reader(path);
  const auto& h = reader.header();
  std::vector<std::string> names{"image", "class"};
  if (xyxy && has_column(h, "x1")) names.insert(names.end(), {"x1", "y1", "x2", "y2"});
  else names.insert(names.end(), {"x", "y", "w", "h"});
  std::vector<io::column_spec> specs;
  specs.push_back({names[0], io::column_type::label, "image"});
  specs.push_back({names[1], io::column_type::label, "class"});
  for (int i = 2; i < 6; ++i) specs.push_back({names[static_cast<std::size_t>(i)], io::column_type::number, names[static_cast<std::size_t>(i)]});
  for (auto& n : names)
    if (!has_column(h, n))
      throw_usage(fmt::format("{}: no column '{}' (a box file needs columns image, class, {}{})", path, n,
                              xyxy ? "x1, y1, x2, y2" : "x, y, w, h", with_score ? ", score" : ""));
  csv_boxes out;
  auto add_opt = [&](const char* name, io::column_type type, int& slot) {
    if (has_column(h, name)) {
      slot = static_cast<int>(specs.size());
      specs.push_back({name, type, name});
    }
  };
  if (with_score) {
    if (!has_column(h, "score")) throw_usage(fmt::format("{}: no column 'score' (a detection file needs one)", path));
    add_opt("score", io::column_type::number, out.score);
  } else {
    add_opt("iscrowd", io::column_type::number, out.crowd);
    add_opt("difficult", io::column_type::number, out.difficult);
    add_opt("area", io::column_type::number, out.area);
  }
  out.t = io::read_table(reader, specs);
  const auto& c = out.t.columns;
  const std::size_t n = out.t.rows;
  for (std::size_t r = 0; r < n; ++r) {
    out.image.push_back(c[0].levels[static_cast<std::size_t>(c[0].codes[r])]);
    out.cls.push_back(c[1].levels[static_cast<std::size_t>(c[1].codes[r])]);
    box_xywh b{c[2].numbers[r], c[3].numbers[r], c[4].numbers[r], c[5].numbers[r]};
    if (xyxy) b = to_xywh(box_xyxy{b.x, b.y, b.w, b.h});
    if (b.w < 0)
      throw_data(fmt::format("{}: data row {}: box width is negative ({}{})", path, r + 1, b.w,
                             xyxy ? ", x2 < x1" : ""));
    if (b.h < 0)
      throw_data(fmt::format("{}: data row {}: box height is negative ({}{})", path, r + 1, b.h,
                             xyxy ? ", y2 < y1" : ""));
    out.boxes.push_back(b);
  }
  return out;
}

bool flag_at(const csv_boxes& b, int col, std::size_t r, const char* name) {
  if (col < 0) return false;
  const double v = b.t.columns[static_cast<std::size_t>(col)].numbers[r];
  if (v != 0 && v != 1)
    throw_data(fmt::format("{}: data row {}: column '{}' must be 0 or 1, got {}", b.t.source, r + 1, name, v));
  return v == 1;
}

id_key text_key(const std::string& s) {
  id_key k;
  k.text = s;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) {
    k.numeric = true;
    k.n = v;
  }
  return k;
}

}  // namespace

dataset read_csv(const std::string& gt_path, const std::string& dt_path, bool xyxy) {
  const csv_boxes g = read_box_csv(gt_path, xyxy, false);
  const csv_boxes p = read_box_csv(dt_path, xyxy, true);
  id_index images;
  for (auto& s : g.image) images.add(text_key(s));
  // Mixed numeric and text ids sort as text.
  if (!std::all_of(images.keys.begin(), images.keys.end(), [](const id_key& k) { return k.numeric; }))
    for (auto& k : images.keys) k.numeric = false;
  images.finish("image", gt_path);
  // Classes follow the class rules of every prediction file (metrics/labels.hpp, as the prediction
  // table applies them): numeric spellings are one class by value ("1" == "1.0") when every class of
  // both files is a number, and classes sort numerically then, by bytes otherwise.
  std::vector<std::string> gt_classes = g.cls, dt_classes = p.cls;
  unify_numeric_labels({&gt_classes, &dt_classes}, {});
  dataset d;
  d.images = images.names();
  d.categories = sort_labels(gt_classes);
  d.category_names = d.categories;
  std::unordered_map<std::string, std::size_t> category_of;
  for (std::size_t i = 0; i < d.categories.size(); ++i) category_of.emplace(d.categories[i], i);
  for (std::size_t r = 0; r < g.image.size(); ++r) {
    ground_truth t;
    t.image = images.pos.at(g.image[r]);
    t.category = category_of.at(gt_classes[r]);
    t.box = g.boxes[r];
    t.area = t.box.w * t.box.h;
    if (g.area >= 0) {
      t.area = g.t.columns[static_cast<std::size_t>(g.area)].numbers[r];
      if (t.area < 0) throw_data(fmt::format("{}: data row {}: column 'area' is negative ({})", gt_path, r + 1, t.area));
    }
    t.crowd = flag_at(g, g.crowd, r, "iscrowd");
    t.difficult = flag_at(g, g.difficult, r, "difficult");
    t.id = static_cast<std::int64_t>(r) + 1;
    d.truths.push_back(t);
  }
  for (std::size_t r = 0; r < p.image.size(); ++r) {
    detection x;
    auto im = images.pos.find(p.image[r]);
    if (im == images.pos.end())
      throw_data(fmt::format("{}: data row {}: image '{}' is not in the ground truth file {}", dt_path, r + 1,
                             p.image[r], gt_path));
    auto ct = category_of.find(dt_classes[r]);
    if (ct == category_of.end())
      throw_data(fmt::format("{}: data row {}: class '{}' is not in the ground truth file {}", dt_path, r + 1,
                             p.cls[r], gt_path));
    x.image = im->second;
    x.category = ct->second;
    x.box = p.boxes[r];
    x.area = x.box.w * x.box.h;
    x.score = p.t.columns[static_cast<std::size_t>(p.score)].numbers[r];
    if (!std::isfinite(x.score))
      throw_data(fmt::format("{}: data row {}: column 'score' is not finite", dt_path, r + 1));
    d.detections.push_back(x);
  }
  return d;
}

dataset read_dataset(const std::string& gt_path, const std::string& dt_path, bool xyxy, const coco_read_options& opts) {
  auto is_json = [](const std::string& p) { return p.size() >= 5 && p.compare(p.size() - 5, 5, ".json") == 0; };
  if (is_json(gt_path) != is_json(dt_path))
    throw_usage(fmt::format("{}{} '{}' and {} '{}': give both as COCO JSON or both as CSV", in_function("read_dataset"),
                            param("gt_path"), gt_path, param("dt_path"), dt_path));
  if (is_json(gt_path)) return read_coco(gt_path, dt_path, opts);
  if (opts.type != iou_type::bbox)
    throw_usage(fmt::format("{}{} '{}': {} evaluation reads COCO JSON files (*.json); CSV holds boxes only",
                            in_function("read_dataset"), param("gt_path"), gt_path, iou_type_name(opts.type)));
  return read_csv(gt_path, dt_path, xyxy);
}

}  // namespace assay::detection
