//! Reading and writing the book's Markdown tables.

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
