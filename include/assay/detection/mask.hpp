// assay: binary masks as COCO stores them (run-length encoding, RLE), the COCO compressed counts
// string, polygons rasterised as pycocotools rasterises them, and mask IoU computed on the runs
// (no dense mask is ever built).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assay::detection {

/// A binary mask of an h x w image. Pixels are numbered in column-major order (index = x*h + y), as
/// COCO's RLE numbers them. The mask is kept as its "on" intervals: [on[2i], on[2i+1]) are the
/// pixels set, ascending, disjoint and not touching (runs of length 0 are removed). `area` is the
/// number of pixels set; (x0, y0)-(x1, y1) is an inclusive box holding every pixel set (columns and
/// rows; empty when area == 0) used only to skip pairs that cannot overlap.
struct mask {
  std::uint32_t h = 0, w = 0;
  std::vector<std::uint32_t> on;
  std::uint64_t area = 0;
  std::uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// Builds a mask from COCO's uncompressed counts: alternating runs of 0s and 1s in column-major
/// order, starting with 0s (a mask starting with a set pixel has a first count of 0). Throws
/// assay::error (data) when the counts do not sum to h*w; the message starts with `where`.
mask mask_from_counts(const std::vector<std::uint32_t>& counts, std::uint32_t h, std::uint32_t w,
                      const std::string& where);

/// The counts of a mask (the inverse of mask_from_counts; runs of length 0 appear only first).
std::vector<std::uint32_t> mask_counts(const mask& m);

/// Encodes counts as COCO's compressed counts string (pycocotools' rleToString): each count, minus
/// the count two places before it from the fourth count on, is written in 5-bit chunks, least
/// significant first, each chunk as the character 48 + chunk + 32 * (more chunks follow); the last
/// chunk's bit 4 is the sign.
std::string rle_encode(const std::vector<std::uint32_t>& counts);

/// Decodes a compressed counts string (pycocotools' rleFrString). Never reads past the string;
/// throws assay::error (data), prefixed by `where`, when a character is outside '0'..'o', the
/// string ends inside a count, a count needs more than 32 bits, or a count comes out negative.
std::vector<std::uint32_t> rle_decode(std::string_view s, const std::string& where);

/// Rasterises polygons (each x0, y0, x1, y1, ... in pixel coordinates) as pycocotools' frPoly and
/// merge do: every polygon's boundary is traced on a 5x upsampled grid, a pixel column switches on
/// and off where the boundary crosses pixel centres, and the union of the polygons is taken. Each
/// polygon needs at least 3 points (6 numbers, an even count); throws assay::error naming `where`.
mask mask_from_polygons(const std::vector<std::vector<double>>& polygons, std::uint32_t h, std::uint32_t w,
                        const std::string& where);

/// Intersection over union of two masks of the same size, as pycocotools' rleIou: |d & g| / |d | g|,
/// or |d & g| / |d| when `g_is_crowd` (the crowd region may hold many objects, so only the part of
/// the detection inside it is asked for); 0 when the intersection is empty. Linear in the number of
/// runs. The sizes must agree (the caller checks).
[[nodiscard]] double mask_iou(const mask& d, const mask& g, bool g_is_crowd) noexcept;

}  // namespace assay::detection
