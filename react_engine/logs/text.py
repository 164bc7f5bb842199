"""The text of each entry as written: the `raw` column, or `raw_head + message` in a lean frame."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import mapped
from react_engine.logs.ahead import in_order
from react_engine.logs.arrow import STRING, concat
from react_engine.logs.mapped import Strings
from react_engine.logs.schema import RAW_COLUMN, RAW_HEAD
from react_engine.logs.text_masks import kept_mask


def arrow_strings(series: pd.Series) -> Strings:
    """`series` as an Arrow string array (zero-copy for Arrow-backed strings; other dtypes are cast)."""
    array = pa.array(series, from_pandas=True) if series.dtype != object else pa.array(series.astype("str"))
    return array if pa.types.is_string(array.type) or pa.types.is_large_string(array.type) else pc.cast(
        array, STRING)


def _joined(head: Strings, message: Strings) -> Strings:
    return concat(head.cast(STRING), message.cast(STRING))


def entry_text(frame: pd.DataFrame) -> pd.Series:
    """Each row's entry as written (the message alone in a frame that has neither `raw` nor `raw_head`)."""
    if RAW_COLUMN in frame.columns:
        return frame[RAW_COLUMN]
    if RAW_HEAD in frame.columns:
        text = pd.array(_joined(arrow_strings(frame[RAW_HEAD]), arrow_strings(frame["message"])),
                        dtype=frame["message"].dtype)
        return pd.Series(text, index=frame.index, name=RAW_COLUMN)
    return frame["message"]


def with_raw(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows with `raw` (each entry as written) in place of `raw_head`, as a full load gives them."""
    if RAW_HEAD not in frame.columns:
        return frame
    position = list(frame.columns).index(RAW_HEAD)
    return frame.drop(columns=[RAW_HEAD]).assign(**{RAW_COLUMN: entry_text(frame)})[
        [*frame.columns[:position], *frame.columns[position + 1 :], RAW_COLUMN]]


def bool_mask(values: Strings) -> np.ndarray:
    """An Arrow boolean result as a numpy mask (null is False)."""
    return np.asarray(values.fill_null(False).to_numpy(zero_copy_only=False), dtype=bool)


def text_mask(frame: pd.DataFrame, test: Callable[[Strings], Strings],
              apart: Callable[[Strings, Strings], np.ndarray] | None = None, key: Hashable = None) -> np.ndarray:
    """`test` (an Arrow predicate over strings) applied to every entry's text, as a boolean mask (null is False).

    In a lean frame the entries are tested CHUNK_ROWS at a time in threads (see `ahead.in_order`), each chunk's
    pages dropped once it is tested (see `mapped.drop_pages`): joined, or given as heads and messages to `apart`, which
    gives the same mask without joining them (see `literal_text`). With `key` (naming the test), the mask is kept
    for the next test of that name of the same text (see `text_masks`)."""
    if key is not None:
        columns = [RAW_COLUMN] if RAW_COLUMN in frame.columns else ["message", RAW_HEAD] if RAW_HEAD in \
            frame.columns else ["message"]
        return kept_mask([frame[c] for c in columns], key, lambda: text_mask(frame, test, apart))
    if RAW_HEAD not in frame.columns or RAW_COLUMN in frame.columns:
        return bool_mask(test(arrow_strings(entry_text(frame))))
    head, message = arrow_strings(frame[RAW_HEAD]), arrow_strings(frame["message"])

    rows = mapped.CHUNK_ROWS

    def tested(start: int) -> np.ndarray:
        parts = head.slice(start, rows), message.slice(start, rows)
        mask = apart(*parts) if apart is not None else bool_mask(test(_joined(*parts)))
        mapped.drop_pages(*parts)
        return mask

    masks = in_order(tested, list(range(0, len(head), rows)))
    return np.concatenate(masks) if masks else np.zeros(0, dtype=bool)
