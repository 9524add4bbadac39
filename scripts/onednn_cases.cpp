// oneDNN's own answers for where each logical element of a tensor lies in memory under its
// format tags (plain permutations and blocked layouts, padded or not): CPU engine only.
// Built and run by scripts/onednn_cases.sh, which writes tests/data/onednn_formats.tsv.
//
// Method, per (tag, dims) case: a source memory in the plain row-major tag of that rank
// (a, ab, abc, ...) with data type s32 holds the value k + 1 at the element whose logical
// row-major index (last dim fastest) is k; a destination memory with the tag under test is
// filled with 0; oneDNN's reorder primitive copies source -> destination. A position p of
// the destination buffer holding v > 0 then says that logical element v - 1 lies at element
// offset p; positions left 0 are padding. The program checks that every logical element lands
// exactly once, inside the buffer, and that the answer agrees with the offset computed from
// the memory descriptor's own blocking description (strides, inner blocks); it stops with an
// error otherwise, and also when a blocked tag has no padded case or a case has more than 640
// logical elements.
//
// Output: one header line `tag dims size offsets`, then one line per case, fields separated
// by one tab:
//
//   tag      the tag's name as oneDNN's C++ enum dnnl::memory::format_tag spells it (the name
//            is the enumerator's own spelling, via the T(...) macro below), e.g. `nChw16c`,
//            `OIhw4i16o4i`, `aBcd16b`, `nhwc`. Aliases (`nhwc` = `acdb`) get lines of their own.
//   dims     the logical dims in oneDNN's order, comma-separated (e.g. N,C,H,W; O,I,H,W;
//            G,O,I,H,W), whatever the physical order the tag names
//   size     the destination memory's size in elements, desc.get_size() / 4 (padding included)
//   offsets  the element offset of every logical element, in row-major logical order (last
//            dim fastest), comma-separated
//
// Lines come in the order of the table below; the output is deterministic for one oneDNN
// version. `onednn_cases --names` instead lists each tag with the canonical name
// dnnl_fmt_tag2str gives its enum value (e.g. `nChw16c	aBcd16b`).

#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/dnnl/dnnl_debug.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using dnnl::memory;
using tag = dnnl::memory::format_tag;

struct Entry {
  const char *name;
  tag t;
  std::vector<memory::dims> cases;
};

// T(enumerator, {dims}, {dims}, ...): the printed name is the enumerator's own spelling.
#define T(x, ...) Entry{#x, tag::x, {__VA_ARGS__}}

static const std::vector<Entry> &table() {
  static const std::vector<Entry> t = {
      // ---- plain (permutations): no padding possible ----------------------------------------
      T(a, {1}, {5}, {17}),
      T(x, {6}),
      T(ab, {3, 4}, {1, 7}),
      T(nc, {3, 4}),
      T(oi, {3, 4}),
      T(ba, {3, 4}, {5, 2}),
      T(io, {3, 4}),
      T(abc, {2, 3, 4}),
      T(acb, {2, 3, 4}, {3, 5, 2}),
      T(nwc, {2, 3, 4}),
      T(bca, {2, 3, 4}),
      T(cba, {2, 3, 4}),
      T(wio, {2, 3, 4}),
      T(abcd, {2, 3, 2, 2}, {1, 4, 3, 2}),
      T(nchw, {2, 3, 2, 2}),
      T(acdb, {2, 3, 2, 2}, {1, 5, 3, 2}),
      T(nhwc, {2, 3, 2, 2}, {1, 5, 3, 2}),
      T(ohwi, {2, 3, 2, 2}),
      T(bacd, {2, 3, 2, 2}, {3, 2, 1, 3}),
      T(iohw, {2, 3, 2, 2}),
      T(cdba, {2, 3, 2, 2}, {4, 3, 1, 2}),
      T(hwio, {2, 3, 2, 2}, {4, 3, 1, 2}),
      T(bcda, {2, 3, 2, 2}),
      T(ihwo, {2, 3, 2, 2}),
      T(abdc, {2, 3, 2, 4}),
      T(abcde, {2, 2, 3, 2, 2}),
      T(acdeb, {2, 3, 2, 2, 2}),
      T(ndhwc, {2, 3, 2, 2, 2}),
      T(cdeba, {2, 3, 2, 1, 2}),
      T(dhwio, {2, 3, 2, 1, 2}),
      T(decab, {2, 3, 2, 1, 2}),
      T(hwigo, {2, 3, 2, 1, 2}),
      T(goihw, {2, 3, 2, 1, 2}),
      T(abcdef, {2, 1, 2, 3, 2, 2}),

      // ---- activations: n, C (blocked), spatial ---------------------------------------------
      T(nCw4c, {2, 10, 3}, {1, 8, 4}),
      T(nCw8c, {2, 10, 3}, {1, 16, 4}),
      T(nCw16c, {2, 10, 3}, {1, 16, 4}, {2, 20, 2}),
      T(nChw4c, {2, 10, 2, 2}, {1, 8, 3, 2}, {2, 3, 1, 3}),
      T(nChw8c, {1, 10, 2, 2}, {2, 16, 1, 2}, {1, 3, 3, 3}),
      T(nChw16c, {1, 10, 2, 2}, {2, 32, 1, 2}, {1, 20, 3, 2}),
      T(nChw32c, {1, 10, 2, 2}, {1, 32, 2, 2}, {2, 40, 1, 2}),
      T(nCdhw8c, {1, 10, 2, 1, 2}, {1, 16, 2, 2, 2}),
      T(nCdhw16c, {1, 10, 2, 2, 2}, {1, 16, 2, 1, 3}, {2, 20, 1, 2, 1}),
      T(NCw16n16c, {5, 20, 2}, {16, 16, 2}),
      T(NChw16n16c, {3, 10, 2, 2}, {16, 16, 1, 2}, {17, 5, 1, 1}),
      T(NCdhw16n16c, {3, 10, 1, 2, 2}, {16, 16, 1, 1, 2}),
      T(NChw32n32c, {3, 10, 2, 2}, {32, 16, 1, 1}),
      T(NCw2c32n8c, {3, 10, 2}, {32, 16, 1}),

      // ---- weights: O, I (+ g in front for grouped), spatial ------------------------------
      T(Oiw16o, {5, 7, 3}, {16, 3, 4}),
      T(Owi16o, {5, 7, 3}, {16, 3, 4}),
      T(OIw16i16o, {5, 7, 3}, {16, 16, 2}),
      T(OIw4i16o4i, {5, 7, 3}, {16, 32, 1}),
      T(Oihw16o, {5, 7, 3, 3}, {16, 3, 2, 2}, {20, 4, 1, 3}),
      T(Ohwi16o, {5, 7, 3, 3}, {16, 3, 2, 2}, {20, 4, 1, 3}),
      T(Ohwi8o, {5, 7, 3, 3}, {16, 3, 2, 2}),
      T(OhwI16o2i, {5, 7, 3, 3}, {16, 4, 2, 2}, {20, 3, 1, 2}),
      T(Owhi16o, {5, 3, 2, 3}, {16, 3, 2, 2}),
      T(OIhw16i16o, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 10, 1, 1}),
      T(OIhw16o16i, {5, 7, 3, 3}, {16, 16, 1, 2}, {10, 20, 1, 1}),
      T(IOhw16o16i, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 10, 1, 1}),
      T(IOhw16i16o, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 10, 1, 1}),
      T(OIhw8i8o, {5, 7, 3, 3}, {8, 16, 2, 2}, {10, 3, 2, 3}),
      T(OIhw8o8i, {5, 7, 3, 3}, {8, 16, 2, 2}),
      T(OIhw4i4o, {5, 7, 3, 3}, {8, 12, 1, 2}),
      T(OIhw4o4i, {5, 7, 3, 3}, {8, 12, 1, 2}),
      T(OIhw4i16o4i, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 9, 1, 2}),
      T(OIhw8i16o2i, {5, 7, 3, 3}, {16, 16, 1, 2}, {17, 18, 1, 1}),
      T(OIhw8o16i2o, {5, 7, 3, 3}, {16, 16, 1, 2}),
      T(OIhw2i8o4i, {5, 7, 3, 3}, {8, 16, 2, 2}),
      T(OIhw16i16o4i, {5, 7, 3, 3}, {16, 32, 1, 1}),
      T(OIhw4o8i8o4i, {5, 7, 3, 3}, {32, 8, 1, 2}),
      T(OIdhw16i16o, {5, 7, 2, 1, 2}, {16, 16, 1, 1, 2}),
      T(gOiw16o, {2, 5, 7, 3}, {2, 16, 3, 4}),
      T(gOihw16o, {2, 5, 7, 2, 3}, {2, 16, 3, 2, 2}, {1, 20, 4, 1, 3}),
      T(gOhwi16o, {2, 5, 7, 2, 3}, {2, 16, 3, 1, 2}),
      T(gOIhw16i16o, {2, 5, 7, 2, 3}, {2, 16, 16, 1, 1}, {1, 20, 10, 1, 2}),
      T(gOIhw16o16i, {2, 5, 7, 2, 3}, {2, 16, 16, 1, 1}),
      T(gIOhw16o16i, {2, 5, 7, 2, 3}, {2, 16, 16, 1, 1}),
      T(gOIhw8i8o, {2, 5, 7, 2, 3}, {2, 8, 16, 1, 2}),
      T(gOIhw2i8o4i, {2, 5, 7, 2, 3}, {2, 8, 16, 1, 2}, {1, 10, 9, 1, 1}),
      T(gOIhw4i16o4i, {2, 5, 7, 2, 3}, {2, 16, 16, 1, 1}, {1, 20, 10, 1, 2}),
      T(gOIhw8i16o2i, {2, 5, 7, 2, 3}, {2, 16, 16, 1, 1}),
      T(Goihw8g, {3, 2, 3, 2, 2}, {8, 2, 3, 1, 2}, {10, 1, 1, 3, 3}),
      T(Goihw16g, {5, 2, 3, 2, 2}, {16, 2, 2, 1, 2}),
      T(gOIdhw16i16o, {2, 5, 7, 1, 2, 2}, {2, 16, 16, 1, 1, 1}),

      // ---- alphabetic names (letter k = dim k) --------------------------------------------
      T(AB16b16a, {5, 7}, {16, 32}, {20, 30}),
      T(AB16a16b, {5, 7}, {16, 32}),
      T(BA16a16b, {5, 7}, {16, 32}, {20, 30}),
      T(AB8a4b, {5, 7}, {16, 12}),
      T(AB4b16a4b, {5, 7}, {32, 16}),
      T(AB32a32b8a4b, {5, 7}, {33, 9}),
      T(aBc16b, {2, 10, 3}, {1, 16, 4}),
      T(ABc16a16b, {5, 7, 3}, {16, 16, 2}),
      T(Acb16a, {5, 7, 3}, {16, 3, 4}),
      T(AcB8a2b, {5, 7, 3}, {16, 4, 3}),
      T(aBcd16b, {1, 10, 2, 2}, {2, 16, 1, 2}, {2, 20, 3, 1}),
      T(aBcd8b, {1, 10, 2, 2}, {2, 16, 1, 2}),
      T(Abcd16a, {5, 3, 2, 3}, {16, 3, 2, 2}, {20, 2, 1, 3}),
      T(Acdb16a, {5, 3, 2, 3}, {16, 3, 2, 2}, {20, 2, 1, 3}),
      T(aBdc16b, {2, 10, 3, 2}, {1, 16, 2, 3}),
      T(abDc32d, {2, 2, 3, 10}, {1, 2, 2, 32}),
      T(ABcd16a16b, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 10, 1, 1}),
      T(ABcd16b16a, {5, 7, 3, 3}, {16, 16, 1, 2}),
      T(ABcd4b16a4b, {5, 7, 3, 3}, {16, 16, 1, 2}, {20, 9, 1, 2}),
      T(ABcd2a8b8a2b, {5, 7, 3, 3}, {16, 16, 1, 2}),
      T(aBCd2c8b4c, {2, 5, 7, 3}, {2, 8, 16, 2}, {3, 10, 9, 1}),
      T(aCBd16b16c, {2, 5, 7, 3}, {2, 16, 16, 1}),
      T(aBcde8b, {1, 10, 2, 1, 2}, {1, 16, 2, 2, 2}),
      T(Abcde16a, {5, 2, 3, 2, 2}, {16, 2, 2, 1, 2}),
      T(aBdec16b, {2, 5, 7, 2, 3}, {2, 16, 3, 1, 2}),
      T(ABcde4b16a4b, {5, 7, 2, 1, 3}, {16, 16, 1, 1, 2}),
      T(Abcdef16a, {5, 2, 3, 1, 2, 2}, {16, 2, 1, 1, 2, 2}),
      T(aBCdef16c16b, {2, 5, 7, 1, 2, 2}, {2, 16, 16, 1, 1, 1}),
  };
  return t;
}

#undef T

static void die(const std::string &what) {
  std::fprintf(stderr, "onednn_cases: %s\n", what.c_str());
  std::exit(1);
}

static std::string join(const memory::dims &d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(d[i]);
  }
  return s;
}

// The plain row-major tag of a rank.
static tag plain_tag(size_t rank) {
  switch (rank) {
    case 1: return tag::a;
    case 2: return tag::ab;
    case 3: return tag::abc;
    case 4: return tag::abcd;
    case 5: return tag::abcde;
    case 6: return tag::abcdef;
    default: die("unsupported rank " + std::to_string(rank));
  }
  return tag::undef;
}

// The element offset of logical index `idx` from the descriptor's blocking description, the
// way oneDNN's memory_desc_wrapper::off_v computes it: inner blocks innermost-last, then the
// outer strides on what is left of each index.
static int64_t blocked_offset(const memory::desc &md, memory::dims idx) {
  const int nblks = md.get_inner_nblks();
  const memory::dims blks = md.get_inner_blks();
  const memory::dims idxs = md.get_inner_idxs();
  const memory::dims strides = md.get_strides();
  int64_t off = 0, blk_stride = 1;
  for (int b = nblks - 1; b >= 0; --b) {
    const auto d = idxs[b];
    off += (idx[d] % blks[b]) * blk_stride;
    idx[d] /= blks[b];
    blk_stride *= blks[b];
  }
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides[d];
  return off;
}

int main(int argc, char **argv) {
  const auto &entries = table();
  if (argc > 1 && std::strcmp(argv[1], "--names") == 0) {
    for (const auto &e : entries)
      std::printf("%s\t%s\n", e.name, dnnl_fmt_tag2str(static_cast<dnnl_format_tag_t>(e.t)));
    return 0;
  }

  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  const auto dt = memory::data_type::s32;

  std::printf("tag\tdims\tsize\toffsets\n");
  for (const auto &e : entries) {
    bool any_padded = false, blocked = false;
    if (e.cases.empty()) die(std::string(e.name) + ": no cases");
    for (const auto &dims : e.cases) {
      const std::string where = std::string(e.name) + " " + join(dims);
      int64_t n = 1;
      for (auto d : dims) n *= d;
      if (n < 1 || n > 640) die(where + ": " + std::to_string(n) + " logical elements");

      memory::desc src_md(dims, dt, plain_tag(dims.size()));
      memory::desc dst_md;
      try {
        dst_md = memory::desc(dims, dt, e.t);
      } catch (const dnnl::error &err) {
        die(where + ": memory::desc: " + err.what());
      }
      if (dst_md.get_size() % sizeof(int32_t) != 0) die(where + ": odd size");
      const int64_t size = int64_t(dst_md.get_size() / sizeof(int32_t));
      if (dst_md.get_inner_nblks() > 0) blocked = true;
      if (size != n) any_padded = true;
      if (dst_md.get_padded_dims() != dims) any_padded = true;

      memory src(src_md, eng), dst(dst_md, eng);
      auto *s = static_cast<int32_t *>(src.get_data_handle());
      auto *d = static_cast<int32_t *>(dst.get_data_handle());
      for (int64_t k = 0; k < n; ++k) s[k] = int32_t(k + 1);
      for (int64_t p = 0; p < size; ++p) d[p] = 0;
      dnnl::reorder(src, dst).execute(strm, src, dst);
      strm.wait();

      std::vector<int64_t> off(size_t(n), -1);
      for (int64_t p = 0; p < size; ++p) {
        const int64_t v = d[p];
        if (v == 0) continue;
        if (v < 0 || v > n) die(where + ": value " + std::to_string(v) + " at " + std::to_string(p));
        if (off[size_t(v - 1)] != -1) die(where + ": element " + std::to_string(v - 1) + " twice");
        off[size_t(v - 1)] = p;
      }
      // Every element placed, and where the descriptor's blocking says it is.
      memory::dims idx(dims.size(), 0);
      for (int64_t k = 0; k < n; ++k) {
        if (off[size_t(k)] < 0) die(where + ": element " + std::to_string(k) + " missing");
        const int64_t want = blocked_offset(dst_md, idx);
        if (want != off[size_t(k)])
          die(where + ": element " + std::to_string(k) + " at " + std::to_string(off[size_t(k)]) +
              ", blocking says " + std::to_string(want));
        for (size_t i = dims.size(); i-- > 0;) {
          if (++idx[i] < dims[i]) break;
          idx[i] = 0;
        }
      }

      std::string line = std::string(e.name) + '\t' + join(dims) + '\t' + std::to_string(size) + '\t';
      for (int64_t k = 0; k < n; ++k) {
        if (k) line += ',';
        line += std::to_string(off[size_t(k)]);
      }
      std::printf("%s\n", line.c_str());
    }
    if (blocked && !any_padded) die(std::string(e.name) + ": blocked but no padded case");
  }
  return 0;
}
