"""A statement file's bytes → its numbered lines of cells, read as a stream within budgets.

A file is judged by its bytes, never by its name: an Excel workbook is a zip holding
``xl/workbook.xml``; anything else must be text (UTF-8, else Windows-1252, as Excel saves CSV).
Formula cells are refused, not evaluated or passed on: ``=HYPERLINK(…)`` in a statement is an attack
on whoever opens an export of it later. How the cells' values become money and dates is
``statements.parsing``'s business, not this module's.

Any signed-up user can upload a file (an organization and a paybill are theirs in a minute), so a
file is read as if it were hostile: one line at a time, never whole, and refused, naming its line, at
the first budget it passes:

- at most ``COLUMNS_MAX`` columns: a cell with a value further right (a one-row workbook whose cell
  sits at column 5,000,000 would otherwise become a list of five million cells) is refused when read;
  an empty one there (a spreadsheet's formatting) is skipped;
- at most ``LINES_MAX`` lines (the ``ROWS_MAX`` transactions and the lines around them), each row of
  a worksheet numbered after the one before and within Excel's, each cell reference (``B7``) one of
  its row, and no cell longer than Excel's own limit;
- a workbook unpacks to at most ``XLSX_MAX_UNPACKED_BYTES`` (its parts' sizes as the zip states them:
  ``zipfile`` never returns more than a part's stated size), its directory is small, and its parts
  are fed to an XML parser in chunks: the worksheet is never a tree in memory, only the row being
  read is, and shared strings are kept as UTF-8 bytes; a DTD, wherever it is, is refused (entities
  are how XML bombs go off);
- ``READ_SECONDS`` of CPU time for the whole file (a 50,000-row workbook takes about 5).
"""

import codecs
import csv
import io
import re
import struct
import time
import zipfile
import zlib
from array import array
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree

from django.utils.translation import gettext as _

STATEMENT_MAX_BYTES = 20 * 1024 * 1024
# A 50,000-row Org Portal workbook unpacks to about 40 MB; a zip bomb unpacks to far more.
XLSX_MAX_UNPACKED_BYTES = 50 * 1024 * 1024
# A workbook has a dozen parts: its directory is a few kilobytes (thousands of parts would cost memory).
XLSX_MAX_DIRECTORY_BYTES = 64 * 1024
# The workbook's list of sheets and its relations: kilobytes in any real file.
XLSX_MAX_INDEX_PART_BYTES = 1024 * 1024
ROWS_MAX = 50_000
# The transactions and the preamble, blank lines and footers around them.
LINES_MAX = ROWS_MAX + 1_000
# The Org Portal writes 13 columns, banks 5 to 15.
COLUMNS_MAX = 40
# Excel's own limit for a cell; a CSV line may hold a few such cells, no more.
CELL_MAX_CHARS = 32_767
CSV_LINE_MAX_CHARS = 4 * CELL_MAX_CHARS
EXCEL_ROWS_MAX = 1_048_576
READ_SECONDS = 20.0

_CHUNK_BYTES = 64 * 1024
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_ROW, _CELL, _FORMULA, _VALUE, _TEXT, _SHARED = (_MAIN + name for name in ("row", "c", "f", "v", "t", "si"))
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_ROW_NUMBER = re.compile(r"[1-9][0-9]{0,6}")
_CELL_REFERENCE = re.compile(r"([A-Z]{1,7})([1-9][0-9]{0,6})")


class StatementError(ValueError):
    """A file that is not a statement we can read; the message says why, and on which line."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.line = line
        super().__init__(_("Line %(line)d: %(message)s") % {"line": line, "message": message} if line else message)


def _unreadable_workbook(line: int | None = None) -> StatementError:
    return StatementError(_("The Excel file cannot be read."), line=line)


def _too_many_lines(line: int) -> StatementError:
    return StatementError(_("A statement may have at most %(count)d rows.") % {"count": ROWS_MAX}, line=line)


def _too_many_columns(line: int) -> StatementError:
    return StatementError(_("A statement may have at most %(count)d columns.") % {"count": COLUMNS_MAX}, line=line)


def _too_long_cell(line: int) -> StatementError:
    return StatementError(_("A cell holds more than %(count)d characters.") % {"count": CELL_MAX_CHARS}, line=line)


class _Clock:
    """The file's time budget, looked at between lines: the reading thread's CPU time, so that a busy
    server refuses no statement it would read when idle."""

    def __init__(self) -> None:
        self.deadline = time.thread_time() + READ_SECONDS

    def check(self, line: int | None) -> None:
        if time.thread_time() > self.deadline:
            raise StatementError(_("The file takes too long to read. Upload the statement as exported."), line=line)


# CSV -------------------------------------------------------------------------------------------


def _csv_encoding(data: bytes) -> str:
    """UTF-8 when the whole file is (decoded a slice at a time, kept nowhere), else Windows-1252."""
    if b"\x00" in data:
        raise StatementError(_("Upload the statement as a CSV or Excel (.xlsx) file."))
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(data), 1024 * 1024):
            decoder.decode(view[start : start + 1024 * 1024])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8-sig"


def _csv_physical_lines(text: io.TextIOBase) -> Iterator[str]:
    number = 0
    while line := text.readline(CSV_LINE_MAX_CHARS + 1):
        number += 1
        if len(line) > CSV_LINE_MAX_CHARS:
            raise StatementError(_("The line is too long to be a statement's."), line=number)
        yield line


def _csv_lines(data: bytes) -> Iterator[tuple[int, list[str]]]:
    clock = _Clock()
    text = io.TextIOWrapper(io.BytesIO(data), encoding=_csv_encoding(data), errors="replace", newline="")
    reader = csv.reader(_csv_physical_lines(text))
    records = 0
    try:
        for cells in reader:
            records += 1
            if records > LINES_MAX:
                raise _too_many_lines(reader.line_num)
            clock.check(reader.line_num)
            while cells and not cells[-1].strip():
                cells.pop()
            if len(cells) > COLUMNS_MAX:
                raise _too_many_columns(reader.line_num)
            yield reader.line_num, cells
    except csv.Error as exc:
        raise StatementError(_("The CSV cannot be read: %(error)s") % {"error": exc}, line=reader.line_num) from None


# Excel -----------------------------------------------------------------------------------------


class _Target:
    """An XML parser's target that refuses a DTD and looks at the clock now and then."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock
        self.line = 0  # the worksheet row being read (or last read); 0 before any
        self.elements = 0

    def doctype(self, name: str, pubid: str, system: str) -> None:
        raise _unreadable_workbook()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.elements += 1
        if self.elements % 1024 == 0:
            self.clock.check(self.line or None)

    def end(self, tag: str) -> None:
        pass

    def data(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


class _IndexTree(ElementTree.TreeBuilder):
    """A tree of a small part (the workbook's list of sheets, its relations), without a DTD."""

    def doctype(self, name: str, pubid: str, system: str) -> None:
        raise _unreadable_workbook()


class _Text:
    """The text of the ``<t>`` or ``<v>`` elements of one cell or shared string, at most ``CELL_MAX_CHARS``."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.open = False

    def add(self, text: str, *, line: int) -> None:
        if self.open:
            self.length += len(text)
            if self.length > CELL_MAX_CHARS:
                raise _too_long_cell(line)
            self.parts.append(text)

    def value(self) -> str:
        return "".join(self.parts)


class _SharedStrings(_Target):
    """The workbook's shared strings as one UTF-8 buffer and where each ends: a few bytes each in
    memory, however many there are (a list of ``str`` would take several times the part's size)."""

    def __init__(self, clock: _Clock) -> None:
        super().__init__(clock)
        self.buffer = bytearray()
        self.ends = array("Q")
        self.text: _Text | None = None

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, index: int) -> str:
        start = self.ends[index - 1] if index else 0
        return self.buffer[start : self.ends[index]].decode()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        if tag == _SHARED:
            self.text = _Text()
        elif tag == _TEXT and self.text is not None:
            self.text.open = True

    def data(self, text: str) -> None:
        if self.text is not None:
            self.text.add(text, line=0)

    def end(self, tag: str) -> None:
        if tag == _TEXT and self.text is not None:
            self.text.open = False
        elif tag == _SHARED and self.text is not None:
            self.buffer += self.text.value().encode()
            self.ends.append(len(self.buffer))
            self.text = None


class _Cell:
    def __init__(self, column: int, kind: str) -> None:
        self.column = column
        self.kind = kind
        self.text = _Text()


class _SheetRows(_Target):
    """The worksheet's rows as they are parsed: each finished one in ``finished`` as (line, cells);
    only the row being read is kept, as a list of its cells (no element tree)."""

    def __init__(self, clock: _Clock, shared: _SharedStrings) -> None:
        super().__init__(clock)
        self.shared = shared
        self.finished: list[tuple[int, list[str]]] = []
        self.rows = 0
        self.cells: list[str] | None = None
        self.cell: _Cell | None = None

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        if tag == _ROW:
            self._row_start(attrib.get("r"))
        elif self.cells is None:
            return
        elif tag == _CELL:
            self.cell = _Cell(self._column(attrib.get("r")), attrib.get("t", "n"))
        elif self.cell is None:
            return
        elif tag == _FORMULA:
            raise StatementError(
                _("A cell holds a formula; statements have none. Export the statement again."), line=self.line
            )
        elif tag in (_VALUE, _TEXT):
            self.cell.text.open = True

    def data(self, text: str) -> None:
        if self.cell is not None:
            self.cell.text.add(text, line=self.line)

    def end(self, tag: str) -> None:
        if tag in (_VALUE, _TEXT) and self.cell is not None:
            self.cell.text.open = False
        elif tag == _CELL and self.cell is not None:
            self._cell_end(self.cell)
            self.cell = None
        elif tag == _ROW and self.cells is not None:
            self.finished.append((self.line, self.cells))
            self.cells = None

    def _row_start(self, number: str | None) -> None:
        self.rows += 1
        if self.rows > LINES_MAX:
            raise _too_many_lines(self.line + 1)
        self.clock.check(self.line + 1)
        if number is None:
            line = self.line + 1
        elif _ROW_NUMBER.fullmatch(number) and self.line < int(number) <= EXCEL_ROWS_MAX:
            line = int(number)
        else:
            raise StatementError(
                _("The row number %(value)s is not the number of the next row.") % {"value": number[:20]},
                line=self.line + 1,
            )
        self.line, self.cells = line, []

    def _column(self, reference: str | None) -> int:
        """The index of the cell at ``reference`` (``C7``: 2), which must be in this row, right of the cells before it."""
        assert self.cells is not None
        if reference is None:
            return len(self.cells)
        found = _CELL_REFERENCE.fullmatch(reference)
        column = -1
        if found and int(found.group(2)) == self.line:
            for letter in found.group(1):
                column = (column + 1) * 26 + ord(letter) - 65
        if column < len(self.cells):
            raise StatementError(
                _("The cell reference %(value)s is not one of this row's next cells.") % {"value": reference[:20]},
                line=self.line,
            )
        return column

    def _cell_end(self, cell: _Cell) -> None:
        assert self.cells is not None
        text = cell.text.value()
        if cell.kind == "s" and text:
            if not (text.isascii() and text.isdigit() and len(text) < 10 and int(text) < len(self.shared)):
                raise _unreadable_workbook(self.line)
            text = self.shared[int(text)]
        if cell.column >= COLUMNS_MAX:
            if text.strip():
                raise _too_many_columns(self.line)
            return
        self.cells.extend([""] * (cell.column - len(self.cells)))
        self.cells.append(text)


def _workbook(data: bytes) -> zipfile.ZipFile:
    """The zip in ``data``, once its directory and stated unpacked size are within their budgets.
    The directory's size is read from its end record before ``zipfile`` reads it; a ZIP64 end (for
    archives over 4 GB) is refused, as its sizes would override those checked."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or end + 22 > len(data) or data[max(0, end - 20) : max(0, end - 16)] == b"PK\x06\x07":
        raise _unreadable_workbook()
    (directory_bytes,) = struct.unpack_from("<I", data, end + 12)
    if directory_bytes > XLSX_MAX_DIRECTORY_BYTES:
        raise _unreadable_workbook()
    archive = zipfile.ZipFile(io.BytesIO(data))
    if sum(info.file_size for info in archive.infolist()) > XLSX_MAX_UNPACKED_BYTES:
        raise StatementError(_("The Excel file is too large once unpacked."))
    return archive


def _xml_parser(target: Any) -> ElementTree.XMLParser:
    # Every target refuses a DTD (``doctype``), so no entity can expand: what defusedxml guards against.
    return ElementTree.XMLParser(target=target)  # noqa: S314


def _parse(archive: zipfile.ZipFile, name: str, target: _Target) -> Iterator[None]:
    """Feed the part ``name`` to an XML parser with ``target`` a chunk at a time, pausing after each
    so that the caller can take what the target has finished."""
    parser = _xml_parser(target)
    with archive.open(name) as part:
        while chunk := part.read(_CHUNK_BYTES):
            parser.feed(chunk)
            yield
    parser.close()
    yield


def _index_part(archive: zipfile.ZipFile, name: str) -> ElementTree.Element:
    if archive.getinfo(name).file_size > XLSX_MAX_INDEX_PART_BYTES:
        raise _unreadable_workbook()
    parser = _xml_parser(_IndexTree())
    parser.feed(archive.read(name))
    return parser.close()


def _first_sheet(archive: zipfile.ZipFile) -> str:
    sheet = _index_part(archive, "xl/workbook.xml").find(f"{_MAIN}sheets/{_MAIN}sheet")
    if sheet is None:
        raise StatementError(_("The Excel file has no worksheet."))
    for relation in _index_part(archive, "xl/_rels/workbook.xml.rels"):
        if relation.get("Id") == sheet.get(_REL_ID):
            target = relation.get("Target", "").lstrip("/")
            return target if target.startswith("xl/") else f"xl/{target}"
    raise StatementError(_("The Excel file has no worksheet."))


def _xlsx_lines(data: bytes) -> Iterator[tuple[int, list[str]]]:
    clock = _Clock()
    rows: _SheetRows | None = None
    try:
        archive = _workbook(data)
        shared = _SharedStrings(clock)
        if "xl/sharedStrings.xml" in archive.namelist():
            for _chunk in _parse(archive, "xl/sharedStrings.xml", shared):
                pass
        rows = _SheetRows(clock, shared)
        for _chunk in _parse(archive, _first_sheet(archive), rows):
            yield from rows.finished
            rows.finished.clear()
    except StatementError:
        raise
    except (
        zipfile.BadZipFile,
        KeyError,
        ElementTree.ParseError,
        zlib.error,
        EOFError,
        NotImplementedError,
        RuntimeError,
    ):
        # RuntimeError: an encrypted part; NotImplementedError: a compression zipfile does not know.
        raise _unreadable_workbook(rows.line if rows is not None and rows.line else None) from None


def statement_lines(data: bytes) -> Iterator[tuple[int, list[str]]]:
    """The numbered lines of cells of the file in ``data`` (CSV or XLSX, told apart by content), blank
    ones left out; ``StatementError`` for an empty or too large file, at the first formula cell and at
    the first budget passed (see above)."""
    if not data.strip():
        raise StatementError(_("The file is empty."))
    if len(data) > STATEMENT_MAX_BYTES:
        raise StatementError(_("A statement may be at most 20 MB."))
    for line, raw in _xlsx_lines(data) if data.startswith(b"PK\x03\x04") else _csv_lines(data):
        cells = [cell.strip() for cell in raw]
        if not any(cells):
            continue
        if formula := next((cell for cell in cells if _is_formula(cell)), None):
            raise StatementError(
                _("A cell holds a formula (%(cell)s); statements have none. Export the statement again.")
                % {"cell": formula[:40]},
                line=line,
            )
        yield line, cells


def _is_formula(cell: str) -> bool:
    """What a spreadsheet would run: ``=…``, ``@…``, or ``+``/``-`` before something that is not a number
    (``-500.00`` and ``+254712…`` are data)."""
    if not cell:
        return False
    if cell[0] in "=@":
        return True
    return cell[0] in "+-" and bool(re.search(r"[A-Za-z(]", cell[1:]))
