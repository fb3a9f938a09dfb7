"""Percentages, rates and medians, rounded the same way on every page.

``None`` stands for "nothing to divide" (a report shows "—" rather than a
misleading 0 %). The pooled median works on already-sorted lists, which is how
the per-session summaries store their times."""

from __future__ import annotations

from bisect import bisect_right
from statistics import median


def pct(part: int, whole: int) -> float | None:
    """A percentage with one decimal, or ``None`` when there is nothing to divide:
    a report shows "—" rather than a misleading 0 %."""
    if whole <= 0:
        return None
    return round(100.0 * part / whole, 1)


def per100(part: int, whole: int) -> float | None:
    if whole <= 0:
        return None
    return round(100.0 * part / whole, 2)


def median_int(values: list[int]) -> int | None:
    return int(median(values)) if values else None


def sorted_median(values: list[int]) -> int | None:
    """The median of an already sorted list, without sorting it again."""
    n = len(values)
    if not n:
        return None
    mid = n // 2
    return values[mid] if n % 2 else int((values[mid - 1] + values[mid]) / 2)


def _kth(lists: list[list[int]], k: int, low: int, high: int) -> int:
    """The ``k``-th smallest value (0-based) of the union of sorted integer
    lists, by bisection on the value: ~15 rounds of one ``bisect`` per list,
    instead of merging and sorting every value (a class's whole history is
    250,000 times)."""
    while low < high:
        mid = (low + high) // 2
        if sum(bisect_right(lst, mid) for lst in lists) > k:
            high = mid
        else:
            low = mid + 1
    return low


def merged(lists: list[list[int]]) -> list[int]:
    """The union of sorted lists, sorted. Cheap: Timsort merges the runs."""
    if len(lists) == 1:
        return lists[0]
    out = [v for lst in lists for v in lst]
    out.sort()
    return out


def pooled_median(lists: list[list[int]]) -> int | None:
    """The exact median of the union of sorted lists (as ``statistics.median``
    of the pooled values would give, truncated to whole ms).

    A few lists (one pupil's sessions) are merged; many long ones (a whole
    class) are searched by bisection on the value instead of sorting a
    quarter of a million times."""
    lists = [lst for lst in lists if lst]
    n = sum(len(lst) for lst in lists)
    if not n:
        return None
    if len(lists) == 1:
        return sorted_median(lists[0])
    if len(lists) * 50 >= n:
        return sorted_median(merged(lists))
    low = min(lst[0] for lst in lists)
    high = max(lst[-1] for lst in lists)
    upper = _kth(lists, n // 2, low, high)
    if n % 2:
        return upper
    lower = _kth(lists, n // 2 - 1, low, upper)
    return int((lower + upper) / 2)
