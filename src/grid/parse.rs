//! Puzzle text formats.
//!
//! * One puzzle per line: `N²` characters (`1`-`9`, then `A`.. for digits above
//!   9 on 16×16 and 25×25 grids; `.`, `0` or `_` for blanks), optionally
//!   followed by whitespace and a free-text label (the rest of the line).
//! * The block layout: `N` lines of `N` cells each, with optional spaces and
//!   `|` separators, and separator lines made of `-`, `+` and `|`.
//! * Lines starting with `#` and blank lines are skipped.
//! * A line ends at `\n`, `\r\n` or a lone `\r` (files saved by old Mac
//!   editors), so line numbers are the ones an editor shows.
//!
//! * Pencilmark grids (9×9 only; `docs/methods.md` §0.1): one line of 729
//!   characters, 9 a cell, cell-major, the `k`-th character of a cell the
//!   digit `k` when it is a candidate and `.` or `0` when not (Sukaku
//!   Explainer's form), optionally followed by a label; or 81 cells of
//!   candidate digits parted by spaces (and `|`), on one line or laid out
//!   in 9 lines with separator lines (HoDoKu's and the forum's form), read
//!   as one puzzle.
//!
//! The order is detected from the length (16, 81, 256 or 625 cells). Errors
//! name the 1-based line (and column for a bad character). A line longer
//! than [`MAX_LINE_BYTES`] is refused as soon as that many bytes are read
//! (a file without line ends, such as `/dev/zero`, is not buffered whole),
//! and reading stops there.

use super::{MAX_ORDER, MIN_ORDER, Puzzle};
use std::fmt;
use std::io::BufRead;

/// What was wrong with an input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The grid has a length that is not `N²` for N in 4, 9, 16, 25.
    WrongLength {
        /// Cells found.
        found: usize,
    },
    /// A character that is neither a digit of the grid nor a blank.
    BadChar {
        /// The character.
        ch: char,
        /// Its 1-based character position on the line.
        column: usize,
    },
    /// A block-layout row with the wrong number of cells.
    BadRow {
        /// Cells a row needs (`N`, taken from the first row).
        expected: usize,
        /// Cells in this row.
        found: usize,
    },
    /// The input ended (or a blank line came) inside a block-layout grid.
    IncompleteBlock {
        /// Rows the grid needs (`N`).
        expected: usize,
        /// Rows read.
        found: usize,
    },
    /// A 16×16 grid that uses `0` as a digit (`0`–`F`, `.` blanks) read in
    /// the default alphabet, where `0` is a blank.
    ZeroDigit,
    /// The line is not valid UTF-8 (e.g. a Latin-1 label); `column` is the
    /// 1-based character position of the first bad byte.
    NotUtf8 {
        /// 1-based character position of the first bad byte.
        column: usize,
    },
    /// The line runs past 64 KiB (`MAX_LINE_BYTES`) without ending: not a puzzle
    /// file (reading stops here).
    LineTooLong,
    /// A 729-character pencilmark grid with a digit where another belongs:
    /// the `k`-th character of a cell is digit `k` or a blank.
    MisplacedCandidate {
        /// The character.
        ch: char,
        /// Its 1-based character position on the line.
        column: usize,
        /// The cell, named `rXcY`.
        cell: String,
        /// The digit whose place it takes.
        place: u8,
    },
    /// A pencilmark grid with a cell that has no candidate.
    NoCandidate {
        /// The cell, named `rXcY`.
        cell: String,
    },
    /// A pencilmark cell with a character other than a digit `1`–`9`.
    BadCandidate {
        /// The cell, named `rXcY`.
        cell: String,
        /// The cell's text.
        text: String,
    },
    /// Reading the input failed.
    Io(String),
}

/// The longest input line read: a 25×25 grid (625 cells, the largest
/// order) with room for a long label. Longer lines are refused while being
/// read.
pub(super) const MAX_LINE_BYTES: usize = 64 * 1024;

impl std::error::Error for ParseErrorKind {}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::WrongLength { found } => write!(
                f,
                "expected 81 cells (or 16, 256, 625 for other orders, or a 729-character pencilmark grid), found {found}"
            ),
            ParseErrorKind::MisplacedCandidate {
                ch,
                column,
                cell,
                place,
            } => write!(
                f,
                "column {column}: {ch:?} stands where candidate {place} of cell {cell} belongs (a 729-character pencilmark grid gives each cell 9 places, the k-th holding k or '.')"
            ),
            ParseErrorKind::NoCandidate { cell } => {
                write!(f, "pencilmark grid: cell {cell} has no candidate")
            }
            ParseErrorKind::BadCandidate { cell, text } => write!(
                f,
                "pencilmark grid: cell {cell} reads {text:?}, expected its candidate digits 1-9"
            ),
            ParseErrorKind::BadChar { ch, column } => {
                write!(f, "column {column}: invalid character {ch:?}")
            }
            ParseErrorKind::BadRow { expected, found } => {
                write!(f, "grid row has {found} cells, expected {expected}")
            }
            ParseErrorKind::IncompleteBlock { expected, found } => {
                write!(f, "grid has {found} rows, expected {expected}")
            }
            ParseErrorKind::ZeroDigit => write!(
                f,
                "this 16×16 grid uses 0 beside '.' blanks and has no G: its digits look like 0–F, \
                 where sudolab reads 0 as a blank and 1–G as digits; pass --alphabet 0-f (or --alphabet 1-g to read 0 as a blank)"
            ),
            ParseErrorKind::NotUtf8 { column } => write!(
                f,
                "column {column}: not valid UTF-8 (save the file as UTF-8)"
            ),
            ParseErrorKind::LineTooLong => write!(
                f,
                "longer than {MAX_LINE_BYTES} bytes without a line end (the largest grid has 625 cells): not a puzzle file; reading stopped"
            ),
            ParseErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// A rejected input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for ParseError {}

/// Character for digit `v` (1..=side) of a grid of side `side`.
pub(crate) fn digit_to_char(v: u8, side: usize) -> char {
    let _ = side;
    match v {
        1..=9 => (b'0' + v) as char,
        10..=35 => (b'A' + v - 10) as char,
        _ => '?',
    }
}

/// How the characters of a puzzle line name digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Alphabet {
    /// `1`–`9` then `A`–`Z` are the digits 1, 2, …; `0`, `.` and `_` are
    /// blanks (16×16: `1`–`9`, `A`–`G`).
    #[default]
    FromOne,
    /// `0`–`9` then `A`–`Z` are the digits 1, 2, …; `.` and `_` are blanks
    /// (the common 16×16 convention `0`–`F`).
    FromZero,
}

impl Alphabet {
    /// Digit value of a character, 0 for a blank, `None` if not a cell character.
    const fn value(self, ch: char) -> Option<u8> {
        let blank = match self {
            Alphabet::FromOne => matches!(ch, '.' | '0' | '_'),
            Alphabet::FromZero => matches!(ch, '.' | '_'),
        };
        if blank {
            return Some(0);
        }
        let shift = matches!(self, Alphabet::FromZero) as u32;
        match ch.to_digit(36) {
            Some(v) if (v + shift) as usize <= MAX_ORDER * MAX_ORDER => Some((v + shift) as u8),
            _ => None,
        }
    }

    /// [`Alphabet::value`] of every ASCII character ([`NOT_A_CELL`] for
    /// none), so an ASCII line is read a byte at a time.
    fn ascii_values(self) -> &'static [u8; 128] {
        &ASCII_VALUES[self as usize]
    }

    /// With no alphabet given, refuses a 16×16 grid that looks written in
    /// `0-f`: `0` beside other blanks (`.`/`_`) and no `G`. Read as `1-g` it
    /// would be another puzzle, so the user must say which alphabet it is.
    fn check(given: Option<Alphabet>, side: usize, grid: &str) -> Result<(), ParseErrorKind> {
        let zero_digit = given.is_none()
            && side == 16
            && grid.contains('0')
            && grid.contains(['.', '_'])
            && !grid.contains(['G', 'g']);
        if zero_digit {
            return Err(ParseErrorKind::ZeroDigit);
        }
        Ok(())
    }
}

fn cell_value(ch: char) -> Option<u8> {
    Alphabet::FromOne.value(ch)
}

fn order_for_cells(len: usize) -> Option<usize> {
    (MIN_ORDER..=MAX_ORDER).find(|n| n * n * n * n == len)
}

fn order_for_side(len: usize) -> Option<usize> {
    (MIN_ORDER..=MAX_ORDER).find(|n| n * n == len)
}

/// In [`ASCII_VALUES`]: not a cell character.
const NOT_A_CELL: u8 = u8::MAX;

/// [`Alphabet::value`] of the 128 ASCII characters, per alphabet (in the
/// order of its variants).
static ASCII_VALUES: [[u8; 128]; 2] = [
    ascii_values(Alphabet::FromOne),
    ascii_values(Alphabet::FromZero),
];

const fn ascii_values(alphabet: Alphabet) -> [u8; 128] {
    let mut t = [NOT_A_CELL; 128];
    let mut b = 0;
    while b < 128 {
        if let Some(v) = alphabet.value(b as u8 as char) {
            t[b] = v;
        }
        b += 1;
    }
    t
}

fn values(
    s: &str,
    side: usize,
    col0: usize,
    alphabet: Alphabet,
) -> Result<Vec<u8>, ParseErrorKind> {
    // Sized once (a puzzle line's bytes bound its cells): no regrowth on
    // the way, which a batch of short puzzles pays on every line.
    if s.is_ascii() {
        // Every data set's lines: a table lookup a byte, no decoding, and
        // one pass for the largest value (both loops vectorise); the bad
        // character is looked for only when there is one.
        let table = alphabet.ascii_values();
        let cells: Vec<u8> = s.bytes().map(|b| table[usize::from(b & 0x7f)]).collect();
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > side {
            let i = cells
                .iter()
                .position(|&v| usize::from(v) > side)
                .unwrap_or(0);
            return Err(ParseErrorKind::BadChar {
                ch: char::from(s.as_bytes()[i]),
                column: col0 + i + 1,
            });
        }
        return Ok(cells);
    }
    let mut cells = Vec::with_capacity(s.len());
    for (i, ch) in s.chars().enumerate() {
        match alphabet.value(ch) {
            Some(v) if v as usize <= side => cells.push(v),
            _ => {
                return Err(ParseErrorKind::BadChar {
                    ch,
                    column: col0 + i + 1,
                });
            }
        }
    }
    Ok(cells)
}

/// Parses one single-line puzzle (`N²` cells, optional label after whitespace).
///
/// ```
/// use sudolab::parse_puzzle;
///
/// let p = parse_puzzle(
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... seventeen",
/// )?;
/// assert_eq!((p.order(), p.givens()), (3, 17));
/// assert_eq!(p.label.as_deref(), Some("seventeen"));
/// assert!(parse_puzzle("12.").is_err());
/// # Ok::<(), sudolab::ParseErrorKind>(())
/// ```
pub fn parse_puzzle(line: &str) -> Result<Puzzle, ParseErrorKind> {
    parse_puzzle_in(line, None)
}

/// [`parse_puzzle`] with the digits of `given` (`None`: the default `1-g`,
/// refusing a 16×16 grid that looks written in `0-f`).
pub(crate) fn parse_puzzle_in(
    line: &str,
    given: Option<Alphabet>,
) -> Result<Puzzle, ParseErrorKind> {
    let alphabet = given.unwrap_or_default();
    let line = line.trim_end_matches(['\r', '\n']);
    let (start, grid, label) = grid_and_label(line);
    let len = if grid.is_ascii() {
        grid.len()
    } else {
        grid.chars().count()
    };
    // A grid with no label and no bar (every data set's puzzle lines) is
    // one word, not 81 cells of candidates: no need to split the line.
    let one_word = label.is_empty() && !grid.contains('|');
    if let Some(marks) = (!one_word).then(|| candidate_cells(line)).flatten() {
        return pencilmark_puzzle(marks);
    }
    if len == PENCILMARK_CHARS {
        let mut p = pencilmark_line(grid, start)?;
        if !label.is_empty() {
            p.label = Some(label.to_string());
        }
        return Ok(p);
    }
    let Some(n) = order_for_cells(len) else {
        // A bad character is the more useful message when the length is off
        // because of it (e.g. a comma-separated line).
        if let Some((i, ch)) = grid
            .chars()
            .enumerate()
            .find(|&(_, ch)| alphabet.value(ch).is_none())
        {
            return Err(ParseErrorKind::BadChar {
                ch,
                column: start + i + 1,
            });
        }
        return Err(ParseErrorKind::WrongLength { found: len });
    };
    let cells = values(grid, n * n, start, alphabet)?;
    Alphabet::check(given, n * n, grid)?;
    let mut p =
        Puzzle::from_cells(n, cells).map_err(|_| ParseErrorKind::WrongLength { found: len })?;
    if !label.is_empty() {
        p.label = Some(label.to_string());
    }
    Ok(p)
}

/// A puzzle line's grid (its first word), the byte where it starts and the
/// label after it (trimmed). An ASCII line (every data set's) is split a
/// byte at a time, with no character decoding.
fn grid_and_label(line: &str) -> (usize, &str, &str) {
    let (start, end) = if line.is_ascii() {
        // `char::is_whitespace` on ASCII: tab, line feed, vertical tab,
        // form feed, carriage return and space.
        let space = |c: &u8| matches!(c, b'\t'..=b'\r' | b' ');
        let bytes = line.as_bytes();
        let start = bytes.iter().position(|c| !space(c)).unwrap_or(bytes.len());
        let end = bytes[start..]
            .iter()
            .position(space)
            .map_or(bytes.len(), |e| start + e);
        (start, end)
    } else {
        let start = line.len() - line.trim_start().len();
        let body = &line[start..];
        let end = body.find(char::is_whitespace).unwrap_or(body.len());
        (start, start + end)
    };
    (start, &line[start..end], line[end..].trim())
}

/// Characters of a one-line pencilmark grid: 9 places for each of 81 cells.
const PENCILMARK_CHARS: usize = 729;

/// A 729-character pencilmark grid: place `k` of a cell holds `k` when it is
/// a candidate, `.` or `0` when not (as Sukaku Explainer reads it).
fn pencilmark_line(grid: &str, start: usize) -> Result<Puzzle, ParseErrorKind> {
    let g = super::Geometry::of(3);
    let mut marks = vec![0u32; g.cells];
    for (i, ch) in grid.chars().enumerate() {
        let (cell, place) = (i / 9, (i % 9 + 1) as u8);
        match ch {
            '.' | '0' => {}
            _ if ch.to_digit(10) == Some(u32::from(place)) => marks[cell] |= 1 << place,
            _ if ch.is_ascii_digit() => {
                return Err(ParseErrorKind::MisplacedCandidate {
                    ch,
                    column: start + i + 1,
                    cell: g.cell_name(cell),
                    place,
                });
            }
            _ => {
                return Err(ParseErrorKind::BadChar {
                    ch,
                    column: start + i + 1,
                });
            }
        }
    }
    pencilmark_puzzle(marks)
}

/// The puzzle of 81 candidate masks, or the cell that has none.
fn pencilmark_puzzle(marks: Vec<u32>) -> Result<Puzzle, ParseErrorKind> {
    let g = super::Geometry::of(3);
    if let Some(cell) = marks.iter().position(|&m| m == 0) {
        return Err(ParseErrorKind::NoCandidate {
            cell: g.cell_name(cell),
        });
    }
    Puzzle::from_pencilmarks(3, marks).map_err(|_| ParseErrorKind::WrongLength {
        found: PENCILMARK_CHARS,
    })
}

/// The cells of a line of candidates: its words parted by spaces and `|`.
fn candidate_words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_whitespace() || c == '|')
        .filter(|w| !w.is_empty())
}

/// Candidate mask of one word of digits `1`–`9`, `None` for anything else.
fn candidate_mask(word: &str) -> Option<u32> {
    word.chars().try_fold(0u32, |m, ch| match ch {
        '1'..='9' => Some(m | 1 << ch.to_digit(10)?),
        _ => None,
    })
}

/// The masks of a line holding `count` cells of candidate digits, at least
/// one cell with two or more (so that a row of givens is not one).
fn candidate_row(line: &str, count: usize) -> Option<Vec<u32>> {
    let words: Vec<&str> = candidate_words(line).collect();
    let cell_like = words.iter().all(|w| w.len() <= 9);
    if words.len() != count || !cell_like || words.iter().all(|w| w.chars().count() < 2) {
        return None;
    }
    words.iter().map(|w| candidate_mask(w)).collect()
}

/// A whole pencilmark grid on one line: 81 cells of candidates.
fn candidate_cells(line: &str) -> Option<Vec<u32>> {
    candidate_row(line, 81)
}

/// A separator line of a pencilmark grid (HoDoKu's `.---+---.`,
/// `:---+---:` and `'---'` as well as the block layout's).
fn is_candidates_separator(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.chars()
            .all(|c| matches!(c, '-' | '+' | '|' | '=' | '.' | ':' | '\'' | '*' | ' '))
}

fn is_separator_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '-' | '+' | '|' | '=' | ' '))
}

/// Cells of a block-layout row: every non-space, non-`|` character.
fn block_row(line: &str) -> String {
    line.chars()
        .filter(|&c| !c.is_whitespace() && c != '|')
        .collect()
}

fn looks_like_block_row(line: &str) -> bool {
    let t = line.trim();
    t.contains('|')
        || order_for_side(block_row(t).chars().count()).is_some() && {
            // A row of a block layout has no label: all cells, spaces and bars.
            t.chars()
                .all(|c| c.is_whitespace() || c == '|' || cell_value(c).is_some())
        }
}

/// Reads one line into `buf`, at most `limit` bytes of it: a line ends at
/// `\n`, `\r\n` or a lone `\r` (old Mac files), the end kept in `buf`.
/// Returns the bytes consumed and whether the line end was reached.
fn read_line(
    input: &mut impl BufRead,
    limit: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok((consumed, false));
        }
        let window = &avail[..avail.len().min(limit - buf.len())];
        if let Some(i) = window.iter().position(|&b| b == b'\n' || b == b'\r') {
            let cr = window[i] == b'\r';
            buf.extend_from_slice(&window[..=i]);
            input.consume(i + 1);
            consumed += i + 1;
            if cr {
                // `\r\n` is one line end, even when split between reads.
                loop {
                    match input.fill_buf() {
                        Ok(next) => {
                            if next.first() == Some(&b'\n') {
                                input.consume(1);
                                consumed += 1;
                                buf.push(b'\n');
                            }
                            break;
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                }
            }
            return Ok((consumed, true));
        }
        let n = window.len();
        buf.extend_from_slice(window);
        input.consume(n);
        consumed += n;
        if buf.len() >= limit {
            return Ok((consumed, false));
        }
    }
}

/// Streams puzzles from a reader, yielding `(line number, puzzle)` or an error
/// per rejected line; after an error, reading continues with the next line.
///
/// ```
/// use sudolab::PuzzleReader;
///
/// let text = "# two puzzles\n1.3\n53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
/// let read: Vec<_> = PuzzleReader::new(text.as_bytes()).collect();
/// assert!(read[0].is_err());
/// assert_eq!(read[1].as_ref().map(|(line, p)| (*line, p.givens())).ok(), Some((3, 30)));
/// ```
pub struct PuzzleReader<R: BufRead> {
    input: R,
    line_no: usize,
    done: bool,
    alphabet: Option<Alphabet>,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of the puzzles in `input`, from its first line, in the
    /// default alphabet (`1-g`).
    pub fn new(input: R) -> Self {
        PuzzleReader {
            input,
            line_no: 0,
            done: false,
            alphabet: None,
        }
    }

    /// Reads digits in `alphabet` (`None`: the default `1-g`, refusing a
    /// 16×16 grid that looks written in `0-f`).
    pub fn with_alphabet(mut self, alphabet: Option<Alphabet>) -> Self {
        self.alphabet = alphabet;
        self
    }

    fn next_line(&mut self) -> Option<Result<String, ParseError>> {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        let mut buf = Vec::new();
        match read_line(&mut self.input, MAX_LINE_BYTES + 1, &mut buf) {
            Ok((0, _)) => None,
            Ok((n, ended)) if n > MAX_LINE_BYTES && !ended => {
                self.line_no += 1;
                self.done = true;
                Some(Err(ParseError {
                    line: self.line_no,
                    kind: ParseErrorKind::LineTooLong,
                }))
            }
            Ok(_) => {
                self.line_no += 1;
                if self.line_no == 1 && buf.starts_with(BOM) {
                    buf.drain(..BOM.len());
                }
                // A comment is skipped whatever its bytes; any other line that
                // is not UTF-8 is rejected alone, and reading goes on.
                if buf.trim_ascii_start().starts_with(b"#") {
                    return Some(Ok(String::from_utf8_lossy(&buf).into_owned()));
                }
                Some(String::from_utf8(buf).map_err(|e| {
                    let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                    ParseError {
                        line: self.line_no,
                        kind: ParseErrorKind::NotUtf8 {
                            column: String::from_utf8_lossy(valid).chars().count() + 1,
                        },
                    }
                }))
            }
            Err(e) => {
                self.line_no += 1;
                self.done = true;
                Some(Err(ParseError {
                    line: self.line_no,
                    kind: ParseErrorKind::Io(e.to_string()),
                }))
            }
        }
    }

    fn read_block(&mut self, first: &str, start_line: usize) -> Result<Puzzle, ParseError> {
        let row = block_row(first);
        let side = row.chars().count();
        let err = |line, kind| ParseError { line, kind };
        let Some(n) = order_for_side(side) else {
            return Err(err(start_line, ParseErrorKind::WrongLength { found: side }));
        };
        let given = self.alphabet;
        let alphabet = given.unwrap_or_default();
        let mut cells = values(&row, side, 0, alphabet).map_err(|k| err(start_line, k))?;
        let mut grid = row;
        let mut rows = 1;
        while rows < side {
            let line = match self.next_line() {
                None => {
                    return Err(err(
                        start_line,
                        ParseErrorKind::IncompleteBlock {
                            expected: side,
                            found: rows,
                        },
                    ));
                }
                Some(Err(e)) => return Err(e),
                Some(Ok(l)) => l,
            };
            if is_separator_line(&line) {
                continue;
            }
            if line.trim().is_empty() {
                return Err(err(
                    start_line,
                    ParseErrorKind::IncompleteBlock {
                        expected: side,
                        found: rows,
                    },
                ));
            }
            let all_given = cells.iter().all(|&v| v != 0);
            if let Some(masks) = candidate_row(&line, side).filter(|_| side == 9 && all_given) {
                // The rows so far were singles: the grid is a pencilmark grid.
                let marks = cells.iter().map(|&v| 1u32 << v).chain(masks).collect();
                return self.read_candidate_grid(marks, start_line);
            }
            let row = block_row(&line);
            let found = row.chars().count();
            if found != side {
                return Err(err(
                    self.line_no,
                    ParseErrorKind::BadRow {
                        expected: side,
                        found,
                    },
                ));
            }
            cells.extend(values(&row, side, 0, alphabet).map_err(|k| err(self.line_no, k))?);
            grid.push_str(&row);
            rows += 1;
        }
        Alphabet::check(given, side, &grid).map_err(|k| err(start_line, k))?;
        Puzzle::from_cells(n, cells).map_err(|_| {
            err(
                start_line,
                ParseErrorKind::WrongLength { found: side * side },
            )
        })
    }
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads the rest of a 9-line pencilmark grid whose first rows gave
    /// `marks` (9 cells a row), starting at line `start_line`.
    fn read_candidate_grid(
        &mut self,
        mut marks: Vec<u32>,
        start_line: usize,
    ) -> Result<Puzzle, ParseError> {
        let err = |line, kind| ParseError { line, kind };
        let incomplete = |marks: &Vec<u32>| {
            err(
                start_line,
                ParseErrorKind::IncompleteBlock {
                    expected: 9,
                    found: marks.len() / 9,
                },
            )
        };
        while marks.len() < 81 {
            let line = match self.next_line() {
                None => return Err(incomplete(&marks)),
                Some(Err(e)) => return Err(e),
                Some(Ok(l)) => l,
            };
            if is_separator_line(&line) || is_candidates_separator(&line) {
                continue;
            }
            if line.trim().is_empty() {
                return Err(incomplete(&marks));
            }
            let words: Vec<&str> = candidate_words(&line).collect();
            if words.len() != 9 {
                let kind = ParseErrorKind::BadRow {
                    expected: 9,
                    found: words.len(),
                };
                return Err(err(self.line_no, kind));
            }
            for w in words {
                let cell = super::Geometry::of(3).cell_name(marks.len());
                let text = w.to_string();
                let mask = candidate_mask(w).ok_or_else(|| {
                    err(self.line_no, ParseErrorKind::BadCandidate { cell, text })
                })?;
                marks.push(mask);
            }
        }
        pencilmark_puzzle(marks).map_err(|kind| err(start_line, kind))
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<(usize, Puzzle), ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let line = match self.next_line()? {
                Ok(l) => l,
                Err(e) => return Some(Err(e)),
            };
            let t = line.trim();
            let skipped = t.is_empty() || t.starts_with('#') || is_separator_line(t);
            if skipped || is_candidates_separator(t) {
                continue;
            }
            let here = self.line_no;
            return Some(match parse_puzzle_in(&line, self.alphabet) {
                Ok(p) => Ok((here, p)),
                Err(kind) => {
                    if let Some(marks) = candidate_row(&line, 9) {
                        self.read_candidate_grid(marks, here).map(|p| (here, p))
                    } else if looks_like_block_row(&line) {
                        self.read_block(&line, here).map(|p| (here, p))
                    } else {
                        Err(ParseError { line: here, kind })
                    }
                }
            });
        }
        None
    }
}

/// Parses every puzzle of a text (convenience over `PuzzleReader`).
pub fn read_puzzles(text: &str) -> Vec<Result<(usize, Puzzle), ParseError>> {
    PuzzleReader::new(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn cr_crlf_and_lf_all_end_a_line() {
        let text = format!("{P} a\r{P} b\r\n{P} c\n\r{P} d\r");
        let read: Vec<(usize, Option<String>)> = read_puzzles(&text)
            .into_iter()
            .map(|r| r.map(|(line, p)| (line, p.label)).unwrap())
            .collect();
        let label = |s: &str| Some(s.to_string());
        assert_eq!(
            read,
            [
                (1, label("a")),
                (2, label("b")),
                (3, label("c")),
                (5, label("d"))
            ]
        );
        // A `\r\n` split between two reads of the buffer is one line end.
        let bytes = format!("{P} a\r\n{P} b\n").into_bytes();
        let reader = std::io::BufReader::with_capacity(P.len() + 3, &bytes[..]);
        let lines: Vec<usize> = PuzzleReader::new(reader).map(|r| r.unwrap().0).collect();
        assert_eq!(lines, [1, 2]);
    }

    #[test]
    fn ascii_lines_split_as_characters_do() {
        // The byte-wise split of an ASCII line against the character-wise
        // one (which non-ASCII lines take): every ASCII whitespace, the
        // vertical tab among them, before, inside and after the label.
        fn by_chars(line: &str) -> (usize, &str, &str) {
            let start = line.len() - line.trim_start().len();
            let body = &line[start..];
            let end = body.find(char::is_whitespace).unwrap_or(body.len());
            (start, &body[..end], body[end..].trim())
        }
        for line in [
            P.to_string(),
            format!("  {P}"),
            format!("\t{P}\x0bhard one \x0c"),
            format!("{P}\x0b"),
            format!(" \r {P} \t label\t\x0b"),
            "   ".to_string(),
            String::new(),
        ] {
            assert_eq!(grid_and_label(&line), by_chars(&line), "{line:?}");
        }
        // Non-ASCII whitespace splits a line too (the character-wise path).
        let wide = format!("{P}\u{3000}label");
        assert_eq!(grid_and_label(&wide), (0, P, "label"));
    }

    /// A 16×16 grid written with 0–F: row `r` holds digits shifted by `r`,
    /// first cell blank.
    fn zero_based_16() -> String {
        let digits = "0123456789ABCDEF";
        (0..16)
            .flat_map(|r| {
                (0..16).map(move |c| {
                    let d = (r * 4 + r / 4 + c) % 16;
                    if c == 0 {
                        '.'
                    } else {
                        digits.as_bytes()[d] as char
                    }
                })
            })
            .collect()
    }

    #[test]
    fn a_16x16_grid_in_0_to_f_is_never_read_silently() {
        let line = zero_based_16();
        assert_eq!(parse_puzzle(&line), Err(ParseErrorKind::ZeroDigit));
        let p = parse_puzzle_in(&line, Some(Alphabet::FromZero)).unwrap();
        assert_eq!(p.givens(), 256 - 16);
        // 0–F read as 1–G: '0' is the digit 1, 'F' is 16 ('G').
        let std_line: String = line
            .chars()
            .map(|c| match c {
                '.' => '.',
                c => digit_to_char(c.to_digit(16).unwrap() as u8 + 1, 16),
            })
            .collect();
        assert_eq!(p.to_line(), std_line);
        // Asked for explicitly, 1–G reads 0 as a blank.
        let blanked = parse_puzzle_in(&line, Some(Alphabet::FromOne)).unwrap();
        assert_eq!(blanked.givens(), 256 - 16 - line.matches('0').count());
        // The same grid as blocks of rows is refused the same way.
        let rows: Vec<String> = line
            .as_bytes()
            .chunks(16)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let block = rows.join("\n") + "\n";
        let r: Vec<_> = PuzzleReader::new(block.as_bytes()).collect();
        assert_eq!(r[0].as_ref().unwrap_err().kind, ParseErrorKind::ZeroDigit);
        let r: Vec<_> = PuzzleReader::new(block.as_bytes())
            .with_alphabet(Some(Alphabet::FromZero))
            .collect();
        assert_eq!(r[0].as_ref().unwrap().1, p);
        // 1–G lines with 0 blanks stay as they are.
        let g_line = std_line.replace('.', "0");
        assert_eq!(parse_puzzle(&g_line).unwrap(), p);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = format!("\u{feff}{P}\n");
        let r = read_puzzles(&text);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].as_ref().unwrap().1.to_line(), P);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_rejected_alone() {
        let mut bytes = format!("{P}\n{P} caf").into_bytes();
        bytes.extend_from_slice(&[0xE9, b'\n']); // Latin-1 "é"
        bytes.extend_from_slice(format!("{P}\n{P}\n# caf").as_bytes());
        bytes.extend_from_slice(&[0xE9, b'\n']); // a comment is skipped whatever its bytes
        let r: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
        assert_eq!(r.len(), 4);
        let lines: Vec<usize> = r
            .iter()
            .filter_map(|x| x.as_ref().ok())
            .map(|x| x.0)
            .collect();
        assert_eq!(lines, vec![1, 3, 4]);
        assert_eq!(
            r[1].as_ref().unwrap_err().to_string(),
            "line 2: column 86: not valid UTF-8 (save the file as UTF-8)"
        );
    }

    #[test]
    fn single_line_with_label() {
        let p = parse_puzzle(&format!("{P}\tsome label 7.1")).unwrap();
        assert_eq!(p.order(), 3);
        assert_eq!(p.givens(), 17);
        assert_eq!(p.label.as_deref(), Some("some label 7.1"));
        assert_eq!(p.to_line(), P);
    }

    #[test]
    fn errors_name_line_and_reason() {
        let text = format!("# comment\n\n{P}\n{}\n{}x\n", &P[..80], &P[..80]);
        let r = read_puzzles(&text);
        assert_eq!(r.len(), 3);
        assert!(r[0].is_ok());
        let e = r[1].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4: expected 81 cells (or 16, 256, 625 for other orders, or a 729-character pencilmark grid), found 80"
        );
        let e = r[2].as_ref().unwrap_err();
        assert_eq!(e.line, 5);
        assert_eq!(
            e.kind,
            ParseErrorKind::BadChar {
                ch: 'x',
                column: 81
            }
        );
    }

    #[test]
    fn digit_too_large_for_order() {
        let e = parse_puzzle("1234123412349123").unwrap_err();
        assert_eq!(
            e,
            ParseErrorKind::BadChar {
                ch: '9',
                column: 13
            }
        );
    }

    #[test]
    fn block_layout() {
        let p = parse_puzzle(P).unwrap();
        let text = format!("{}\n{P}\n", p.to_block());
        let r = read_puzzles(&text);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].as_ref().unwrap().1.to_line(), P);
        assert_eq!(r[1].as_ref().unwrap().0, 13);
    }

    #[test]
    fn sixteen_by_sixteen_letters() {
        let mut line: String = "123456789ABCDEFG".into();
        line.push_str(&".".repeat(240));
        let p = parse_puzzle(&line).unwrap();
        assert_eq!(p.order(), 4);
        assert_eq!(p.get(15), 16);
        assert_eq!(p.to_line(), line);
    }
}
