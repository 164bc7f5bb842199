"""Superlatives and the words that say which way a ranking runs ("most", "fewest", "busiest", "lowest first")."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

HIGH = ("most", "highest", "largest", "biggest", "greatest", "slowest", "longest", "maximum", "busiest", "noisiest")
"""Superlatives that rank from the top: the most lines or the highest value first."""

LOW = ("least", "fewest", "rarest", "lowest", "smallest", "quietest", "fastest", "shortest", "minimum")
"""Superlatives that rank from the bottom: the fewest lines or the lowest value first."""

COUNTING = ("most", "fewest", "least")
"""The superlatives of a number of lines ("the most bytes": their total), not of a value's size."""

MOST = ("most", "highest", "largest", "biggest", "noisiest", "busiest", "worst")
"""Superlatives that make "which X ..." a question about the X with the most lines."""

TOP_N_MOST = ("most", "highest", "largest", "biggest", "busiest", "noisiest")
"""Superlatives that make "which 3 X ..." a ranking of three X."""

FEWEST = ("least", "fewest", "rarest")
"""Superlatives that make a ranking of N values run from the fewest lines ("the 3 rarest users")."""

QUIET = ("quietest", "fewest", "least", "lowest", "calmest")
"""Superlatives that ask for the quietest time buckets ("which hour had the fewest errors")."""

BUCKET_EXTREMES = ("busiest", "quietest")
"""The superlatives of a time bucket's lines ("the 3 busiest minutes")."""

PEAK = (*BUCKET_EXTREMES, "peak")
"""Words before a time bucket that ask for the busiest or quietest of them ("busiest hour", "peak minute")."""

POPULAR = ("common", "frequent", "active", "seen", "used", "popular")
"""Adjectives after "most" or "least" that rank values by their lines ("the most common users")."""

MOST_POPULAR = ("common", "frequent", "active", "affected", "seen")
"""Adjectives after "most" that ask for a ranking outright ("the most affected hosts")."""

RANKING_SUPERLATIVES = ("busiest", "noisiest", "rarest", "commonest")
"""Superlatives that rank values by their lines on their own ("the 3 busiest components")."""

STATISTIC_SUPERLATIVES: Mapping[str, Literal["min", "max"]] = MappingProxyType({
    "smallest": "min", "lowest": "min", "shortest": "min", "largest": "max", "biggest": "max", "highest": "max",
    "longest": "max", "most": "max"})
"""Superlatives that ask for a statistic of a field ("the largest response size": its maximum)."""

SIZE_SUPERLATIVES = ("smallest", "lowest", "largest", "biggest", "highest")
"""Superlatives of a size or an amount ("the largest amount of data")."""

DURATION_SUPERLATIVES = ("longest", "shortest")
"""Superlatives of a duration ("the longest session")."""

SPREAD_ENDS = (("min", "minimum", "lowest", "smallest"), ("max", "maximum", "highest", "largest"))
"""The words of the lowest and of the highest value, which asked together ("the min and max size") ask both."""

ONE_BUCKET_MOST = ("most", "highest", "largest", "biggest")
"""Superlatives that ask for a rate's maximum when a single bucket is named ("the most errors in one minute")."""

PLACED = ("most", "least", "highest", "lowest", "largest", "smallest", "biggest", "busiest", "fewest")
"""Superlatives after an ordinal ("the second most"): a place in a ranking other than the first."""

SORT_ORDERS = ("asc", "ascending", "desc", "descending")
"""Words naming a sort order ("sorted ascending", "in descending order")."""

SORT_VERBS = ("sorted", "ordered", "ranked")
"""Verbs of sorting ("sorted by count")."""

LINE_COUNTS = ("count", "counts", "volume", "frequency")
"""What a ranking sorted by its lines' number names ("sorted by volume")."""

NEWEST = ("last", "latest", "newest", "most recent")
"""Words of a listing's newest end ("the last 3 errors")."""

OLDEST = ("first", "earliest", "oldest")
"""Words of a listing's oldest end ("the first five lines")."""

IN_TIME_ORDER = r"(?:" + "|".join(w.replace(" ", r"\s+") for w in (*OLDEST, *NEWEST)) + r")\b"
"""The words of either end in time order, as a regex ("first", "latest", "most recent")."""

QUIETEST = ("quietest", "fewest", "least")
"""Words that make the buckets a peak asks for the quietest ones ("the quietest hour")."""

GAP_SUPERLATIVES = ("longest", "biggest", "largest", "longer")
"""Words that ask for the longest silences between lines ("the biggest gaps")."""

STRETCH = r"\b(?:" + "|".join(GAP_SUPERLATIVES) + r")\s+(?:time|period|stretch|while)"
"""The longest time between lines, a regex ("the longest stretch without a WARN": between the WARN lines)."""

DISTINCT_WORDS = ("distinct", "unique", "different")
"""Words that count each value once ("how many distinct ports per user")."""

HOLDING_VERBS = ("has", "had", "have", "used", "uses", "use", "saw", "sees", "tried", "touched", "hit", "with")
"""Verbs between a ranked value and the distinct values its lines hold ("which user has the most distinct ports",
"the users with the fewest different IPs", "which IP tried the most distinct users")."""

EACH_VERBS = ("did", "does", "do", "has", "had", "have")
"""Verbs before "each" that make it a value counted for ("how many different IPs did each user use")."""
