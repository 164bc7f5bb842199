"""Read one input into memory, in chunks, under limits: only regular files (or stdin), no binary content,
no decompression bomb, no more than `max_input_size` bytes and no more than memory holds.

Binary content inside a text log (a run of NUL bytes left by a crash, a blob of random bytes) is cut out and its
byte ranges reported, and the text around it is read; lines in UTF-16 among UTF-8 ones are text (their NUL bytes
are dropped when the lines are split). An input whose first chunk holds no text at all is binary, and not read on.

Compression is detected by magic bytes, not by file name. Every limit is checked as the bytes come in,
so a bad input is refused after one chunk rather than after it has filled memory.
"""

from __future__ import annotations

import bz2
import codecs
import contextlib
import gzip
import lzma
import os
import re
import select
import stat
import sys
import time
import zlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import BinaryIO, Protocol, cast

from react_engine.errors import InputError, TimeLimitError
from react_engine.logs.lines import Chunks
from react_engine.logs.memory import MemoryBudget, out_of_memory_refused
from react_engine.logs.options import LoadOptions, format_size
from react_engine.logs.sources import SourceFile, not_regular

CHUNK = 1 << 20
BINARY_SAMPLE = 8192
"""Each chunk's first bytes are checked for binary content."""
BINARY_CONTROL_SHARE = 0.30
"""A sample with a larger share of control bytes (NUL included) is binary, and so is one with more than
`BINARY_INVALID_SHARE` of them that is not UTF-8 (random bytes hold about 10%). `file` and git call a
single NUL binary; one stray NUL in a text log should not lose the whole file."""
BINARY_INVALID_SHARE = 0.05
RATIO_GRACE = 32 << 20
"""The compression ratio is checked only once this many bytes have come out: small files may compress
very well."""
_MAGIC: tuple[tuple[bytes, str], ...] = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"))
_CONTROLS = bytes(b for b in range(32) if b not in b"\t\n\r\f\v\x1b")
_UTF16 = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_CORRUPT = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)
NUL_RUN = 16
"""A run of this many NUL bytes is binary wherever it is (UTF-16 text holds NULs one at a time)."""
MIN_TEXT_LINE = 8
"""Shorter lines among binary content are taken as part of it: random bytes hold short runs that read as text."""
_NULS = re.compile(b"\x00{%d,}" % NUL_RUN)
_NUL_RUN = bytes(NUL_RUN)
_LINE_END = re.compile(b"\n")


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


_DEADLINE: ContextVar[float | None] = ContextVar("read_deadline", default=None)


@contextlib.contextmanager
def reading_by(deadline: float | None) -> Iterator[None]:
    """Reads started inside end by `deadline` (a `time.monotonic()` value) with a `TimeLimitError`: stdin that
    sends nothing more, and files still being read then."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _overdue(name: str) -> TimeLimitError:
    return TimeLimitError(f"{name}: still reading it when the run's time limit passed; end the input sooner (or "
                          "save it to a file), or raise the limit with --timeout")


def _check_deadline(name: str) -> None:
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise _overdue(name)


class _StdinByDeadline:
    """Standard input read from its file descriptor, each read waiting no longer than the run's deadline, and
    returning what has come so far (a pipe that sends a line and then nothing is not waited on to fill a chunk)."""

    def __init__(self, fd: int, deadline: float, name: str) -> None:
        self.fd, self.deadline, self.name = fd, deadline, name
        self.head = b""

    def _wait(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0 or not select.select([self.fd], [], [], left)[0]:
            raise _overdue(self.name)

    def peek(self, size: int = 1, /) -> bytes:
        while len(self.head) < size and (more := self._raw(size - len(self.head))):
            self.head += more
        return self.head

    def _raw(self, size: int) -> bytes:
        self._wait()
        return os.read(self.fd, size)

    def read(self, size: int = -1, /) -> bytes:
        if self.head:
            head, self.head = self.head, b""
            return head
        return self._raw(size if size > 0 else CHUNK)

    def seekable(self) -> bool:
        return False

    def __enter__(self) -> _StdinByDeadline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None



@dataclass(frozen=True)
class Content:
    """An input's bytes (decompressed) with its binary parts cut out, and their `[start, end)` byte ranges;
    `binary_at` is set, and `data` empty, when the input starts with binary content."""

    data: Chunks
    binary_at: int | None = None
    binary: tuple[tuple[int, int], ...] = ()


def _utf8(sample: bytes) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)  # a character cut at the end is fine
    except UnicodeDecodeError:
        return False
    return True


def is_binary(sample: bytes) -> bool:
    """True when `sample` is mostly control bytes, or holds many and is not UTF-8 (UTF-16 with a BOM is text)."""
    if not sample or sample.startswith(_UTF16):
        return False
    share = (len(sample) - len(sample.translate(None, _CONTROLS))) / len(sample)
    return share > BINARY_CONTROL_SHARE or (share > BINARY_INVALID_SHARE and not _utf8(sample))


def _open(source: SourceFile) -> BinaryIO:
    """A buffered binary stream of the input; a path that is no longer a regular file is refused without blocking."""
    if source.path is None:
        deadline = _DEADLINE.get()
        if deadline is None or os.name != "posix":
            return sys.stdin.buffer
        return cast(BinaryIO, _StdinByDeadline(sys.stdin.fileno(), deadline, source.name))
    try:
        fd = os.open(source.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except PermissionError:
        raise InputError(f"{source.name}: permission denied; make the file readable (chmod +r) or copy it") from None
    except OSError as exc:
        raise InputError(f"{source.name}: cannot read it ({exc.strerror}); check the path") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise not_regular(source.name, mode)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


class _Counted:
    """Counts the compressed bytes a decompressor has taken."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.count = 0

    def read(self, size: int = -1, /) -> bytes:
        data = self.stream.read(size)
        self.count += len(data)
        return data


def _decompressor(kind: str, raw: _Counted) -> _Readable:
    stream = cast(BinaryIO, raw)  # the decompressors only call read()
    if kind == "gzip":
        return gzip.GzipFile(fileobj=stream)
    if kind == "bz2":
        return bz2.BZ2File(stream)
    return lzma.LZMAFile(stream)


def _peek(stream: BinaryIO) -> bytes:
    peek = getattr(stream, "peek", None)
    if peek is not None:
        return bytes(peek(8)[:8])
    if stream.seekable():
        head = stream.read(8)
        stream.seek(-len(head), os.SEEK_CUR)
        return head
    return b""


def _too_large(name: str, options: LoadOptions) -> InputError:
    return InputError(f"{name}: larger than the input size limit ({format_size(options.max_input_size)} once "
                      "decompressed); narrow the input, or raise the limit with --max-input-size")


class _Reader:
    """One input's chunks, with every limit checked as they come in."""

    def __init__(self, name: str, options: LoadOptions, budget: MemoryBudget) -> None:
        self.name, self.options, self.budget = name, options, budget

    def _check(self, total: int, raw: _Counted | None, kind: str) -> None:
        if total > self.options.max_input_size:
            raise _too_large(self.name, self.options)
        if raw is not None and total > RATIO_GRACE and total > self.options.max_ratio * raw.count:
            raise InputError(
                f"{self.name}: {kind} data expands more than {self.options.max_ratio:g} times "
                f"({format_size(raw.count)} gave {format_size(total)} so far), like a decompression bomb; "
                "if the file is genuine, raise the limit with --max-ratio"
            )

    def read(self, stream: BinaryIO) -> Content:
        kind = compression(_peek(stream))
        raw = _Counted(stream) if kind else None
        try:
            return self._chunks(_decompressor(kind, raw) if kind and raw else stream, raw, kind or "")
        except _CORRUPT as exc:
            if not kind or isinstance(exc, PermissionError):
                raise InputError(f"{self.name}: cannot read it ({exc}); check the path") from None
            raise InputError(f"{self.name}: corrupt or truncated {kind} data ({exc}); "
                             "re-copy the file or decompress it by hand") from None

    def _chunks(self, stream: _Readable, raw: _Counted | None, kind: str) -> Content:
        data = bytearray()
        utf16 = False
        binary = _Ranges()
        offset = 0
        while chunk := stream.read(CHUNK):
            size = len(chunk)
            if not offset:
                utf16 = chunk.startswith(_UTF16)
            if not utf16 and (is_binary(chunk[:BINARY_SAMPLE]) or (b"\x00" in chunk and _NUL_RUN in chunk)):
                chunk = _text_of(chunk, offset, binary)
                if not offset and not chunk.strip(b"\n"):
                    return Content(b"", binary_at=0)
            offset += size
            self._check(offset, raw, kind)
            data += chunk
            self.budget.take(len(chunk))
            _check_deadline(self.name)
        return Content(data, binary=tuple(binary.spans))


class _Ranges:
    """Byte ranges `[start, end)`, merged when they touch or only a line end lies between them."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int]] = []

    def add(self, start: int, end: int) -> None:
        if self.spans and start - self.spans[-1][1] <= 1:
            self.spans[-1] = (min(self.spans[-1][0], start), max(self.spans[-1][1], end))
        else:
            self.spans.append((start, end))


def _text_of(chunk: bytes, offset: int, binary: _Ranges) -> bytes:
    """`chunk` (at `offset` in the input) with its runs of NUL bytes and its binary lines cut out, line ends kept
    (so lines keep their numbers); what was cut is added to `binary`."""
    kept, start = [], 0
    for end in [*(m.start() for m in _LINE_END.finditer(chunk)), len(chunk)]:
        line, cut = chunk[start:end], 0
        for run in _NULS.finditer(line):
            binary.add(offset + start + run.start(), offset + start + run.end())
            cut += 1
        if cut:
            line = _NULS.sub(b"", line)
        if line and not _text_line(line[:BINARY_SAMPLE].replace(b"\x00", b"")):
            binary.add(offset + start, offset + end)
            line = b""
        kept.append(line)
        start = end + 1
    return b"\n".join(kept)


def _text_line(line: bytes) -> bool:
    """Whether a line among binary content is text: UTF-8, few control bytes, and not a few stray bytes."""
    return len(line) >= MIN_TEXT_LINE and _utf8(line) and not is_binary(line)


def binary_note(name: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The warning for the binary ranges cut out of input `name`."""
    (start, end), more = spans[0], len(spans) - 1
    total = sum(end - start for start, end in spans)
    return (f"{name}: binary content left out at bytes {start:,}-{end - 1:,}"
            + (f" and {more:,} more range{'s' if more > 1 else ''} ({format_size(total)} in all)" if more else "")
            + "; the text around it was read")


def compression(head: bytes) -> str | None:
    """`gzip`, `bz2` or `xz` when `head` starts with that format's magic bytes, else None."""
    return next((kind for magic, kind in _MAGIC if head.startswith(magic)), None)


def read_stream(stream: BinaryIO, name: str, options: LoadOptions | None = None,
                budget: MemoryBudget | None = None) -> Content:
    """A stream's content (any binary file object, e.g. an fsspec file), decompressed and within the limits."""
    return _Reader(name, options or LoadOptions(), budget or MemoryBudget()).read(stream)


def read(source: SourceFile, options: LoadOptions | None = None, budget: MemoryBudget | None = None) -> Content:
    """The input's content, decompressed when it starts with gzip, bzip2 or xz magic bytes, within the limits."""
    options = options or LoadOptions()
    if source.size > options.max_input_size:
        raise _too_large(source.name, options)
    with _open(source) as stream, out_of_memory_refused(source.name):
        return read_stream(stream, source.name, options, budget)

