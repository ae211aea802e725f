//! Markdown tables, shaped for a terminal: the examples and the matrix
//! write Markdown for the book, and a class reads the same run on a
//! projector, where `| **P1**: … |` across 180 columns reads as noise.
//!
//! - [`columns`]: each table as aligned plain columns, emphasis and code
//!   marks taken out; other lines kept, their marks taken out too.
//! - [`records`]: each row of each table as a small block, its first cell
//!   as a heading and one `header: cell` line per other column, for tables
//!   too wide for any screen.
//! - [`for_terminal`]: Markdown when the output is not a terminal (the
//!   book's generators capture it), the given shape when it is.

use std::io::IsTerminal;

/// `markdown` as is when stdout is not a terminal, else `shape(markdown)`.
pub fn for_terminal(markdown: &str, shape: fn(&str) -> String) -> String {
    if std::io::stdout().is_terminal() {
        shape(markdown)
    } else {
        markdown.to_string()
    }
}

/// Each table of `markdown` as aligned plain columns (two spaces apart, a
/// rule of dashes under the header); every `**` and `` ` `` taken out.
pub fn columns(markdown: &str) -> String {
    reshaped(markdown, |rows, out| {
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..width)
            .map(|c| {
                rows.iter()
                    .filter_map(|r| r.get(c))
                    .map(|cell| cell.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for (i, row) in rows.iter().enumerate() {
            out.push_str(&aligned(row, &widths));
            if i == 0 {
                let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
                out.push_str(&aligned(&rule, &widths));
            }
        }
    })
}

/// Each row of each table of `markdown` as a block: its first cell, then
/// `  header: cell` for each other column; marks taken out as in
/// [`columns`].
pub fn records(markdown: &str) -> String {
    reshaped(markdown, |rows, out| {
        let Some((header, body)) = rows.split_first() else {
            return;
        };
        let pad = header
            .iter()
            .skip(1)
            .map(|h| h.chars().count())
            .max()
            .unwrap_or(0);
        for row in body {
            out.push_str(row.first().map_or("", String::as_str));
            out.push('\n');
            for (h, cell) in header.iter().zip(row).skip(1) {
                out.push_str(&format!("  {h:<pad$}  {cell}\n"));
            }
        }
    })
}

/// `markdown` with each line outside a table in plain text and each table
/// (its rows of plain cells) written by `table`.
fn reshaped(markdown: &str, table: impl Fn(&[Vec<String>], &mut String)) -> String {
    let mut out = String::new();
    for block in blocks(markdown) {
        match block {
            Block::Text(line) => {
                out.push_str(&plain(line));
                out.push('\n');
            }
            Block::Table(rows) => table(&rows, &mut out),
        }
    }
    out
}

enum Block<'a> {
    Text(&'a str),
    /// The header and the body rows, cells in plain text (the rule dropped).
    Table(Vec<Vec<String>>),
}

fn blocks(markdown: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with('|') {
            let cells = cells(line);
            if !cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| "-:".contains(ch)))
            {
                table.push(cells);
            }
            continue;
        }
        if !table.is_empty() {
            out.push(Block::Table(std::mem::take(&mut table)));
        }
        out.push(Block::Text(line));
    }
    if !table.is_empty() {
        out.push(Block::Table(table));
    }
    out
}

/// A row's cells, trimmed and in plain text. A `|` inside backticks is
/// part of its cell.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let (mut cells, mut cell, mut code) = (Vec::new(), String::new(), false);
    for c in inner.chars() {
        match c {
            '`' => {
                code = !code;
                cell.push(c);
            }
            '|' if !code => cells.push(plain(std::mem::take(&mut cell).trim())),
            _ => cell.push(c),
        }
    }
    cells.push(plain(cell.trim()));
    cells
}

fn plain(text: &str) -> String {
    text.replace("**", "")
        .replace('`', "")
        .replace('\u{a0}', " ")
}

fn aligned(row: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (i, w) in widths.iter().enumerate() {
        let cell = row.get(i).map_or("", String::as_str);
        if i > 0 {
            line.push_str("  ");
        }
        line.push_str(cell);
        line.push_str(&" ".repeat(w.saturating_sub(cell.chars().count())));
    }
    format!("{}\n", line.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "**Stopping**\n\n| version | P1 cancel |\n|---|---|\n\
                         | `cancel_flag` | **bug P1** |\n| `poison_pill` | ok |\n";

    #[test]
    fn columns_align_and_lose_their_marks() {
        assert_eq!(
            columns(TABLE),
            "Stopping\n\nversion      P1 cancel\n-----------  ---------\n\
             cancel_flag  bug P1\npoison_pill  ok\n"
        );
    }

    #[test]
    fn records_put_one_row_in_a_block() {
        assert_eq!(
            records(TABLE),
            "Stopping\n\ncancel_flag\n  P1 cancel  bug P1\npoison_pill\n  P1 cancel  ok\n"
        );
    }

    #[test]
    fn a_bar_inside_code_stays_in_its_cell() {
        assert_eq!(cells("| `a|b` | c |"), ["a|b", "c"]);
    }
}
