// Choice helpers shared by the RapidCheck generators (generators/ only).
// RapidCheck's elementOf/weightedOneOf do not shrink across options; these do,
// toward the first option, which callers make the simplest. A `Pick` is a
// shape-independent choice (an option and a free parameter) that a generator
// realises later against a concrete shape; see case_gen.h.
#pragma once
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace slicefuzz::gen {

// An index drawn with the given weights (weight 0: never drawn, never a shrink).
inline rc::Gen<size_t> genWeightedIndex(std::vector<size_t> weights) {
  const size_t total = std::accumulate(weights.begin(), weights.end(), size_t{0});
  return [weights, total](const rc::Random& random, int) {
    uint64_t x = rc::Random(random).next() % total;
    size_t i = 0;
    while (x >= weights[i]) x -= weights[i++];
    return rc::shrinkable::shrinkRecur(i, [weights](size_t v) {
      return rc::seq::filter(rc::shrink::towards<size_t>(v, 0),
                             [weights](size_t j) { return weights[j] > 0; });
    });
  };
}

// One of several generators, by weight, shrinking toward the first.
template <typename T>
rc::Gen<T> genWeighted(std::vector<std::pair<size_t, rc::Gen<T>>> options) {
  std::vector<size_t> weights;
  std::vector<rc::Gen<T>> gens;
  for (auto& option : options) {
    weights.push_back(option.first);
    gens.push_back(std::move(option.second));
  }
  return rc::gen::mapcat(genWeightedIndex(std::move(weights)),
                         [gens](size_t i) { return gens[i]; });
}

// Uniform in [0, n), shrinking toward 0. Unlike gen::inRange it ignores the
// RapidCheck size, so small sizes still see every value.
inline rc::Gen<uint64_t> genBelow(uint64_t n) {
  return [n](const rc::Random& random, int) {
    return rc::shrinkable::shrinkRecur(rc::Random(random).next() % n, [](uint64_t v) {
      return rc::shrink::towards<uint64_t>(v, 0);
    });
  };
}

// One of `values`, uniformly, shrinking toward values[0].
template <typename T>
rc::Gen<T> genElement(std::vector<T> values) {
  return rc::gen::map(genWeightedIndex(std::vector<size_t>(values.size(), 1)),
                      [values](size_t i) { return values[i]; });
}

// 1..max_len elements (fewer at small RapidCheck sizes), shrinking by removing
// any run of elements (never all of them), then each element.
template <typename T>
rc::Gen<std::vector<T>> genNonEmptyList(size_t max_len, rc::Gen<T> element) {
  return [max_len, element](const rc::Random& random, int size) {
    rc::Random r(random);
    const size_t limit = std::min(max_len, 1 + static_cast<size_t>(std::max(size, 0)) / 6);
    const size_t n = 1 + r.split().next() % limit;
    std::vector<rc::Shrinkable<T>> elements;
    for (size_t i = 0; i < n; ++i) elements.push_back(element(r.split(), size));
    using Elements = std::vector<rc::Shrinkable<T>>;
    auto shrinks = [](const Elements& els) {
      return rc::seq::concat(
          rc::seq::filter(rc::shrink::removeChunks(els),
                          [](const Elements& e) { return !e.empty(); }),
          rc::shrink::eachElement(els, [](const rc::Shrinkable<T>& s) { return s.shrinks(); }));
    };
    return rc::shrinkable::map(rc::shrinkable::shrinkRecur(std::move(elements), shrinks),
                               [](const Elements& els) {
                                 std::vector<T> values;
                                 for (const auto& s : els) values.push_back(s.value());
                                 return values;
                               });
  };
}

// Option `kind` (simplest first) with a free parameter `k`, reduced modulo
// whatever range the concrete shape allows.
struct Pick {
  size_t kind = 0;
  uint64_t k = 0;
};
inline constexpr uint64_t kPickRange = uint64_t{1} << 20;

inline rc::Gen<Pick> genPick(std::vector<size_t> weights) {
  return rc::gen::map(rc::gen::pair(genWeightedIndex(std::move(weights)), genBelow(kPickRange)),
                      [](const std::pair<size_t, uint64_t>& p) {
                        return Pick{p.first, p.second};
                      });
}

// k reduced into [0, max(n, 1)).
inline int64_t below(uint64_t k, int64_t n) {
  return static_cast<int64_t>(k % static_cast<uint64_t>(std::max<int64_t>(n, 1)));
}

// A permutation of 0..keys.size()-1 from random keys (a stable argsort), so that
// keys shrinking to ties shrink the permutation toward identity.
inline std::vector<int> argsort(const std::vector<uint64_t>& keys) {
  std::vector<int> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  return order;
}

}  // namespace slicefuzz::gen
