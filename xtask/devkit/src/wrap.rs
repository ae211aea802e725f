//! The book's width, and what a generated output block is wrapped to it
//! by: long lines broken at spaces, shell commands broken as a shell reads
//! them.

/// The widest line a generated output block may hold: the book's rule is
/// about 90 characters, which its code font fits in the column on screen
/// and in print (`cargo xtask screenshots` measures both).
pub const COLUMNS: usize = 88;

/// `text` with each line wider than `width` characters broken at spaces;
/// the pieces after the first are indented two spaces more than the line
/// was, so that they read as one line continued. A word longer than a
/// whole line is cut. Ends every line with a newline.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.chars().count() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let more = " ".repeat(indent + 2);
        let mut current = line[..indent].to_string();
        let mut empty = true;
        for word in line.split_whitespace() {
            let room = width.saturating_sub(current.chars().count() + usize::from(!empty));
            if !empty && word.chars().count() > room {
                out.push_str(&current);
                out.push('\n');
                current = more.clone();
                empty = true;
            }
            let mut word = word;
            // A word wider than a whole line: cut it.
            while current.chars().count() + word.chars().count() > width {
                let fits = width.saturating_sub(current.chars().count()).max(1);
                let cut = word.char_indices().nth(fits).map_or(word.len(), |(i, _)| i);
                current.push_str(&word[..cut]);
                out.push_str(&current);
                out.push('\n');
                current = more.clone();
                word = &word[cut..];
            }
            if !empty {
                current.push(' ');
            }
            current.push_str(word);
            empty = false;
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// A shell command (`$ FOO="a b" cargo test ...`) in lines of at most
/// `width` characters, as a shell takes it: each line but the last ends in
/// ` \`, the next is indented four spaces, a quoted word stays whole and
/// a flag stays with its value.
pub fn wrap_command(command: &str, width: usize) -> String {
    // Words, with a quoted stretch (`"--cfg loom"`) inside its word.
    let mut words: Vec<String> = Vec::new();
    let (mut word, mut quote) = (String::new(), None);
    for c in command.chars() {
        match (c, quote) {
            ('"' | '\'', None) => {
                quote = Some(c);
                word.push(c);
            }
            (c, Some(q)) if c == q => {
                quote = None;
                word.push(c);
            }
            (' ', None) => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    // A flag stays on one line with its value (`--exact name`, `-p wheel`).
    let mut units: Vec<String> = Vec::new();
    let mut rest = words.into_iter().peekable();
    while let Some(w) = rest.next() {
        let flag = w.starts_with('-') && w != "--";
        match rest.peek() {
            Some(value) if flag && !value.starts_with('-') => {
                let value = rest.next().unwrap_or_default();
                units.push(format!("{w} {value}"));
            }
            _ => units.push(w),
        }
    }
    let words = units;
    // Too long for one line: the environment (`FOO=1 BAR=2`, after the
    // prompt) gets a line of its own, and the program starts the next.
    let fits = command.chars().count() <= width;
    let env_ends = words
        .iter()
        .position(|w| w != "$" && !is_assignment(w))
        .filter(|&at| !fits && words[..at].iter().any(|w| is_assignment(w)));
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, w) in words.iter().enumerate() {
        let last = i + 1 == words.len();
        // Room for the word, and for ` \` unless it is the last word.
        let needs = current.chars().count() + 1 + w.chars().count() + if last { 0 } else { 2 };
        if !current.trim().is_empty() && (needs > width || env_ends == Some(i)) {
            lines.push(format!("{current} \\"));
            current = "   ".to_string();
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(w);
    }
    lines.push(current);
    lines.join("\n")
}

/// `NAME=value`: a shell word that sets an environment variable.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces_with_their_start_kept() {
        let message = "W9 ticker_waits_for_adder: on lockfree.rs, the task due at 30 ms ran at \
                       220 ms (190 ms late), where at most two ticks (20 ms) + 40 ms was expected";
        let wrapped = wrap(message, 40);
        assert_eq!(
            wrapped,
            "W9 ticker_waits_for_adder: on\n  \
             lockfree.rs, the task due at 30 ms ran\n  \
             at 220 ms (190 ms late), where at most\n  \
             two ticks (20 ms) + 40 ms was expected\n"
        );
        assert!(wrapped.lines().all(|l| l.chars().count() <= 40));
        // The words, in order, are the message's.
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            message.split_whitespace().collect::<Vec<_>>()
        );
        // A short line, an indented one, and a word wider than a line.
        assert_eq!(wrap("short\n", 40), "short\n");
        assert_eq!(wrap("  ab cd ef", 7), "  ab cd\n    ef\n");
        assert_eq!(wrap("abcdefghij", 4), "abcd\n  ef\n  gh\n  ij\n");
    }

    #[test]
    fn commands_wrap_as_a_shell_reads_them() {
        let command = "$ RUST_BACKTRACE=0 RUSTFLAGS=\"--cfg loom\" cargo test -p poison-pill \
                       --release --test loom_notify_on_cancel -- --ignored";
        let wrapped = wrap_command(command, 45);
        assert_eq!(
            wrapped,
            "$ RUST_BACKTRACE=0 RUSTFLAGS=\"--cfg loom\" \\\n    \
             cargo test -p poison-pill --release \\\n    \
             --test loom_notify_on_cancel -- --ignored"
        );
        // The environment ends its line even where the program would fit.
        assert_eq!(
            wrap_command("$ A=1 cargo test -p wheel --release --test w5", 30),
            "$ A=1 \\\n    cargo test -p wheel \\\n    --release --test w5"
        );
        assert!(wrapped.lines().all(|l| l.chars().count() <= 45));
        assert_eq!(wrap_command("$ cargo test", 44), "$ cargo test");
    }
}
