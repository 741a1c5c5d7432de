//! Parse errors: where (byte offset, line, column) and what was expected.

use std::fmt;

use thiserror::Error;

use crate::concept::vocabulary::NameError;

/// A place in the input. `line` and `column` are 1-based; `column` counts characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text` (clamped to the text, snapped to a char start).
    pub fn locate(text: &str, offset: usize) -> Self {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position {
            offset,
            line,
            column,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a class expression could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A token that does not fit the grammar here.
    #[error("{at}: expected {expected}, found {found}")]
    Unexpected {
        at: Position,
        expected: String,
        found: String,
    },
    /// A name that does not resolve. (`source` is shown in this message, not chained as
    /// an error source, so reports do not print it twice.)
    #[error("{at}: {error}")]
    Name { at: Position, error: NameError },
    /// Valid OWL that this crate cannot represent (refused rather than silently dropped).
    #[error("{at}: unsupported: {construct}")]
    Unsupported { at: Position, construct: String },
    /// A malformed token or value (bad literal, bad number, unterminated string…).
    #[error("{at}: {message}")]
    Invalid { at: Position, message: String },
}

impl ParseError {
    /// Where the error is.
    pub fn position(&self) -> Position {
        match self {
            ParseError::Unexpected { at, .. }
            | ParseError::Name { at, .. }
            | ParseError::Unsupported { at, .. }
            | ParseError::Invalid { at, .. } => *at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_lines_and_columns() {
        let text = "ab\ncä d";
        assert_eq!(
            Position::locate(text, 6),
            Position {
                offset: 6,
                line: 2,
                column: 3
            }
        );
        assert_eq!(Position::locate(text, 0).column, 1);
        assert_eq!(Position::locate(text, 100).offset, text.len());
    }
}
