//! Reading and writing the book's Markdown tables.

/// A Markdown table as the book's generated files and the tools' reports
/// write it: `| a | b |` for the header, the rule `|---|---|` under it (as
/// many columns as the header has), then a line per row, each ended by a
/// newline.
pub fn md_table<H: AsRef<str>, C: AsRef<str>>(header: &[H], rows: &[Vec<C>]) -> String {
    let mut out = row(header);
    out.push('|');
    out.push_str(&"---|".repeat(header.len()));
    out.push('\n');
    for cells in rows {
        out.push_str(&row(cells));
    }
    out
}

/// One line of a table: `| a | b |` and a newline.
fn row<C: AsRef<str>>(cells: &[C]) -> String {
    let mut line = String::from("|");
    for cell in cells {
        line.push(' ');
        line.push_str(cell.as_ref());
        line.push_str(" |");
    }
    line.push('\n');
    line
}

/// Whether a generated Markdown file has lost its figures: empty, or a
/// table with rows whose every cell after the first is "-" (or empty).
pub fn figureless(text: &str) -> bool {
    if text.trim().is_empty() {
        return true;
    }
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect()
        })
        .collect();
    // The header and its rule are not data.
    let data: Vec<&Vec<&str>> = rows
        .iter()
        .skip(1)
        .filter(|r| !r.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':')))
        .collect();
    !data.is_empty()
        && data
            .iter()
            .all(|r| r.iter().skip(1).all(|c| c.is_empty() || *c == "-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_its_header_its_rule_and_a_line_per_row() {
        let rows = [vec!["x", "1.0"], vec!["y", "-"]];
        assert_eq!(
            md_table(&["floor", "median"], &rows),
            "| floor | median |\n|---|---|\n| x | 1.0 |\n| y | - |\n"
        );
        let none: [Vec<String>; 0] = [];
        assert_eq!(
            md_table(&["a", "b", "c"], &none),
            "| a | b | c |\n|---|---|---|\n"
        );
    }

    #[test]
    fn a_table_of_dashes_or_an_empty_file_has_lost_its_figures() {
        let dashes = "| floor | median |\n|---|---|\n| `Instant::now` | - |\n| one CAS | - |\n";
        assert!(figureless(dashes));
        assert!(figureless("\n"));
        let one = "| floor | median |\n|---|---|\n| `Instant::now` | 20.1 ns |\n| one CAS | - |\n";
        assert!(!figureless(one), "one figure is a table with figures");
        assert!(!figureless("```text\nsome captured output\n```\n"));
        assert!(!figureless("| a | b |\n|:--|--:|\n| x | 1.0× |\n"));
    }
}
