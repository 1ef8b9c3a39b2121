// The orders GNU libstdc++'s std::sort, std::partial_sort and
// std::nth_element leave equal elements in.
//
// ATen's CPU sort (stable=False), topk and mode call these three
// algorithms, so the positions torch reports among tied values are the ones
// libstdc++'s introsort, heap selection and introselect happen to produce.
// pt2web reproduces those algorithms step for step (same pivots, same
// partition, same insertion-sort threshold, same heap layout) so that ties
// come out as torch orders them whichever standard library pt2web itself was
// built with (emscripten's libc++ orders ties differently).
//
// Every function takes random-access iterators and a strict weak order
// `less`, and never throws except what `less` or the element's copy throws.
// Calls inside are qualified, so std's algorithms of the same names are
// never picked by argument-dependent lookup.
#pragma once

#include <cstdint>
#include <iterator>
#include <utility>

namespace pt2web::gnu_order {

// Positions apart below which introsort leaves a range to the final insertion sort.
constexpr std::ptrdiff_t kInsertionThreshold = 16;

// floor(log2(n)) for n > 0.
inline std::ptrdiff_t floor_log2(std::ptrdiff_t n) {
  std::ptrdiff_t log = 0;
  while (n > 1) {
    n >>= 1;
    ++log;
  }
  return log;
}

// Moves the element at `last` left past every element it is less than; an
// element not greater than it must exist to the left.
template <typename It, typename Less>
void unguarded_linear_insert(It last, Less less) {
  auto value = std::move(*last);
  It next = last - 1;
  while (less(value, *next)) {
    *last = std::move(*next);
    last = next;
    --next;
  }
  *last = std::move(value);
}

template <typename It, typename Less>
void insertion_sort(It first, It last, Less less) {
  if (first == last) return;
  for (It i = first + 1; i != last; ++i) {
    if (less(*i, *first)) {
      auto value = std::move(*i);
      std::move_backward(first, i, i + 1);
      *first = std::move(value);
    } else {
      gnu_order::unguarded_linear_insert(i, less);
    }
  }
}

template <typename It, typename Less>
void final_insertion_sort(It first, It last, Less less) {
  if (last - first > kInsertionThreshold) {
    gnu_order::insertion_sort(first, first + kInsertionThreshold, less);
    for (It i = first + kInsertionThreshold; i != last; ++i) gnu_order::unguarded_linear_insert(i, less);
  } else {
    gnu_order::insertion_sort(first, last, less);
  }
}

// Heap operations (a max-heap under `less`, children of i at 2i+1 and 2i+2).
template <typename It, typename T, typename Less>
void push_heap_hole(It first, std::ptrdiff_t hole, std::ptrdiff_t top, T value, Less less) {
  std::ptrdiff_t parent = (hole - 1) / 2;
  while (hole > top && less(*(first + parent), value)) {
    *(first + hole) = std::move(*(first + parent));
    hole = parent;
    parent = (hole - 1) / 2;
  }
  *(first + hole) = std::move(value);
}

// Fills the hole at `hole` by walking down to a leaf along the larger
// children, then sifts `value` up from there.
template <typename It, typename T, typename Less>
void adjust_heap(It first, std::ptrdiff_t hole, std::ptrdiff_t len, T value, Less less) {
  const std::ptrdiff_t top = hole;
  std::ptrdiff_t child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (less(*(first + child), *(first + (child - 1)))) --child;
    *(first + hole) = std::move(*(first + child));
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    *(first + hole) = std::move(*(first + (child - 1)));
    hole = child - 1;
  }
  gnu_order::push_heap_hole(first, hole, top, std::move(value), less);
}

template <typename It, typename Less>
void make_heap(It first, It last, Less less) {
  const std::ptrdiff_t len = last - first;
  if (len < 2) return;
  for (std::ptrdiff_t parent = (len - 2) / 2;; --parent) {
    auto value = std::move(*(first + parent));
    gnu_order::adjust_heap(first, parent, len, std::move(value), less);
    if (parent == 0) return;
  }
}

// Moves the heap's top to `result` and the element at `result` into the heap [first, last).
template <typename It, typename Less>
void pop_heap_into(It first, It last, It result, Less less) {
  auto value = std::move(*result);
  *result = std::move(*first);
  gnu_order::adjust_heap(first, std::ptrdiff_t(0), last - first, std::move(value), less);
}

// Leaves the (middle - first) least elements of [first, last) as a heap in [first, middle).
template <typename It, typename Less>
void heap_select(It first, It middle, It last, Less less) {
  gnu_order::make_heap(first, middle, less);
  for (It i = middle; i < last; ++i)
    if (less(*i, *first)) gnu_order::pop_heap_into(first, middle, i, less);
}

template <typename It, typename Less>
void sort_heap(It first, It last, Less less) {
  while (last - first > 1) {
    --last;
    gnu_order::pop_heap_into(first, last, last, less);
  }
}

// std::partial_sort: the (middle - first) least elements, in order, in [first, middle).
template <typename It, typename Less>
void partial_sort(It first, It middle, It last, Less less) {
  gnu_order::heap_select(first, middle, last, less);
  gnu_order::sort_heap(first, middle, less);
}

// Swaps the median of *a, *b, *c (under `less`) into *result.
template <typename It, typename Less>
void move_median_to_first(It result, It a, It b, It c, Less less) {
  using std::iter_swap;
  if (less(*a, *b)) {
    if (less(*b, *c)) iter_swap(result, b);
    else if (less(*a, *c)) iter_swap(result, c);
    else iter_swap(result, a);
  } else if (less(*a, *c)) {
    iter_swap(result, a);
  } else if (less(*b, *c)) {
    iter_swap(result, c);
  } else {
    iter_swap(result, b);
  }
}

// Hoare partition of [first, last) around *pivot, which bounds both scans.
template <typename It, typename Less>
It unguarded_partition(It first, It last, It pivot, Less less) {
  while (true) {
    while (less(*first, *pivot)) ++first;
    --last;
    while (less(*pivot, *last)) --last;
    if (!(first < last)) return first;
    std::iter_swap(first, last);
    ++first;
  }
}

// The median of the second, middle and last elements becomes the pivot at *first.
template <typename It, typename Less>
It partition_around_median(It first, It last, Less less) {
  It mid = first + (last - first) / 2;
  gnu_order::move_median_to_first(first, first + 1, mid, last - 1, less);
  return gnu_order::unguarded_partition(first + 1, last, first, less);
}

template <typename It, typename Less>
void introsort_loop(It first, It last, std::ptrdiff_t depth_limit, Less less) {
  while (last - first > kInsertionThreshold) {
    if (depth_limit == 0) {
      gnu_order::partial_sort(first, last, last, less);
      return;
    }
    --depth_limit;
    It cut = gnu_order::partition_around_median(first, last, less);
    gnu_order::introsort_loop(cut, last, depth_limit, less);
    last = cut;
  }
}

// std::sort.
template <typename It, typename Less>
void sort(It first, It last, Less less) {
  if (first == last) return;
  gnu_order::introsort_loop(first, last, floor_log2(last - first) * 2, less);
  gnu_order::final_insertion_sort(first, last, less);
}

// std::nth_element: *nth is what sorting would put there, nothing before it
// is greater and nothing after it is less.
template <typename It, typename Less>
void nth_element(It first, It nth, It last, Less less) {
  if (first == last || nth == last) return;
  std::ptrdiff_t depth_limit = floor_log2(last - first) * 2;
  while (last - first > 3) {
    if (depth_limit == 0) {
      gnu_order::heap_select(first, nth + 1, last, less);
      std::iter_swap(first, nth);
      return;
    }
    --depth_limit;
    It cut = gnu_order::partition_around_median(first, last, less);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  gnu_order::insertion_sort(first, last, less);
}

}  // namespace pt2web::gnu_order
