//! The chapter's pictures, drawn from real state, never by hand:
//!
//! - `--hashed <svg>`: a 16-slot hashed wheel (`HashedCore`) after a few
//!   inserts: the cursor, each task in its bucket, and its rounds left;
//! - `--levels <svg>`: `Levels` after a few inserts: which slot of which
//!   level each timer sits in, as the occupied bitmaps say;
//! - `--cost <svg>`: the work of one schedule against the number pending,
//!   counted (not timed) from 2^10 to 2^20: a binary heap's comparisons
//!   (per pop, per push of a new earliest deadline, per push of a random
//!   one) beside the wheels' steps per insert.
//!
//! Each also prints its text form, which `--text <file>` writes.
//!
//! ```text
//! cargo run -p wheel --release --example pictures -- --hashed w.svg
//! ```

use std::cell::Cell;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fmt::Write as _;

use wheel::hashed_core::HashedCore;
use wheel::levels::Levels;

const FONT: &str = r#"font-family="sans-serif" font-size="13""#;

/// The hashed wheel: 16 slots, the cursor after 5 ticks, tasks due within
/// and beyond one revolution.
fn hashed() -> (String, String) {
    const SLOTS: usize = 16;
    let mut core: HashedCore<&str> = HashedCore::new(SLOTS).expect("16 slots");
    let mut fired = Vec::new();
    for _ in 0..5 {
        core.advance(&mut fired);
    }
    let now = core.now();
    let dues = [7, 9, 9, 12, 25, 41, 58];
    let keys: Vec<_> = dues
        .iter()
        .map(|&due| (due, core.insert(due, "task")))
        .collect();
    let mut text = format!(
        "a hashed wheel of {SLOTS} slots at tick {now}: a task due at tick d sits in slot d mod {SLOTS}\n"
    );
    let (w, h) = (680, 330);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let cell = 40;
    let x0 = 20;
    let y0 = 60;
    let _ = write!(
        svg,
        r#"<text x="{x0}" y="20" {FONT}>{SLOTS} slots of one tick each, at tick {now}; under each slot, its tasks: due tick, rounds left</text>"#
    );
    for s in 0..SLOTS {
        let x = x0 + s * cell;
        let cursor = s as u64 == now % SLOTS as u64;
        let fill = if cursor { "#ffe08a" } else { "#f4f4f4" };
        let _ = write!(
            svg,
            r##"<rect x="{x}" y="{y0}" width="{cell}" height="30" fill="{fill}" stroke="#555"/><text x="{}" y="{}" {FONT} text-anchor="middle">{s}</text>"##,
            x + cell / 2,
            y0 + 20
        );
        if cursor {
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" {FONT} text-anchor="middle">cursor ▼</text>"#,
                x + cell / 2,
                y0 - 8
            );
        }
    }
    let mut stacked = [0usize; SLOTS];
    for (due, key) in &keys {
        let slot = (due % SLOTS as u64) as usize;
        let rounds = core.rounds(*key).expect("pending");
        let _ = writeln!(
            text,
            "  due at tick {due:>2}: slot {slot:>2}, {rounds} round(s) to sit out"
        );
        let x = x0 + slot * cell;
        let y = y0 + 40 + stacked[slot] * 44;
        stacked[slot] += 1;
        let _ = write!(
            svg,
            r##"<rect x="{}" y="{y}" width="{}" height="38" rx="4" fill="#cfe3ff" stroke="#357"/><text x="{}" y="{}" {FONT} text-anchor="middle">{due}</text><text x="{}" y="{}" {FONT} text-anchor="middle">r{rounds}</text>"##,
            x + 2,
            cell - 4,
            x + cell / 2,
            y + 16,
            x + cell / 2,
            y + 32
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{x0}" y="{}" {FONT}>r = rounds left: the ticker passes the slot that many times before the task is due.</text></svg>"#,
        h - 12
    );
    (svg, text)
}

/// The hierarchical wheel's lower three levels after a few inserts at tick
/// 100: which slot of which level each timer sits in.
fn levels() -> (String, String) {
    let mut levels: Levels<u64> = Levels::starting_at(100);
    let dues = [103u64, 130, 150, 700, 3_000, 5_000, 300_000];
    let keys: Vec<_> = dues.iter().map(|&d| (d, levels.insert(d, d))).collect();
    let mut text = String::from("levels of 64 slots at tick 100; each timer's level and slot:\n");
    for (due, key) in &keys {
        let (level, slot) = levels.whereabouts(*key).expect("pending");
        let _ = writeln!(
            text,
            "  due at tick {due:>6}: level {level}, slot {slot:>2}"
        );
    }
    let occupied = levels.occupied();
    let shown = 3;
    let (cell, x0, y0, row) = (8, 130, 50, 60);
    let (w, h) = (x0 + 64 * cell + 20, y0 + shown * row + 20);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = write!(
        svg,
        r#"<text x="10" y="20" {FONT}>At tick 100; a filled cell is a set bit of its level's occupied word</text>"#
    );
    for (level, word) in occupied.iter().enumerate().take(shown) {
        let y = y0 + level * row;
        let span = 64u64.pow(level as u32);
        let _ = write!(
            svg,
            r#"<text x="10" y="{}" {FONT}>level {level}</text><text x="10" y="{}" font-family="sans-serif" font-size="12">{span} tick(s)/slot</text>"#,
            y + 14,
            y + 30
        );
        for s in 0..64 {
            let set = word >> s & 1 == 1;
            let fill = if set { "#357" } else { "#f4f4f4" };
            let _ = write!(
                svg,
                r##"<rect x="{}" y="{y}" width="{cell}" height="20" fill="{fill}" stroke="#999" stroke-width="0.5"/>"##,
                x0 + s * cell
            );
        }
        let timers: Vec<String> = keys
            .iter()
            .filter(|(_, k)| levels.whereabouts(*k).is_some_and(|(l, _)| l == level))
            .map(|(d, k)| format!("{d} (slot {})", levels.whereabouts(*k).expect("pending").1))
            .collect();
        let _ = write!(
            svg,
            r#"<text x="{x0}" y="{}" font-family="sans-serif" font-size="12">{}</text>"#,
            y + 36,
            if timers.is_empty() {
                "empty".to_owned()
            } else {
                timers.join(", ")
            }
        );
    }
    svg.push_str("</svg>");
    let above: Vec<_> = keys
        .iter()
        .filter(|(_, k)| levels.whereabouts(*k).is_some_and(|(l, _)| l >= shown))
        .map(|(d, _)| d.to_string())
        .collect();
    let _ = writeln!(
        text,
        "  (not drawn: levels {shown} and up, holding {})",
        above.join(", ")
    );
    (svg, text)
}

thread_local! {
    static COMPARISONS: Cell<u64> = const { Cell::new(0) };
}

/// A deadline whose comparisons are counted.
#[derive(PartialEq, Eq)]
struct Counted(u64);

impl Ord for Counted {
    fn cmp(&self, other: &Self) -> Ordering {
        COMPARISONS.with(|n| n.set(n.get() + 1));
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Counted {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn counted(f: impl FnOnce()) -> u64 {
    let before = COMPARISONS.with(Cell::get);
    f();
    COMPARISONS.with(Cell::get) - before
}

/// splitmix64: the same deadlines on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Random deadlines are drawn above this; "earliest" ones below it.
const FLOOR: u64 = 1_000_000;

/// One row per size: the counts the plot shows.
fn costs() -> Vec<(u32, [f64; 5])> {
    const SAMPLES: u64 = 200;
    (10..=20)
        .step_by(2)
        .map(|k| {
            let n = 1u64 << k;
            let mut state = 7;
            let mut deadlines: Vec<u64> = (0..n)
                .map(|_| FLOOR + next(&mut state) % 10_000_000)
                .collect();
            let mut heap: BinaryHeap<Reverse<Counted>> =
                deadlines.iter().map(|&d| Reverse(Counted(d))).collect();
            let random = counted(|| {
                for _ in 0..SAMPLES {
                    heap.push(Reverse(Counted(FLOOR + next(&mut state) % 10_000_000)));
                }
            });
            // Each due before everything pending: it sifts to the top.
            let earliest = counted(|| {
                for i in 0..SAMPLES {
                    heap.push(Reverse(Counted(FLOOR - 1 - i)));
                }
            });
            let pop = counted(|| {
                for _ in 0..SAMPLES {
                    heap.pop();
                }
            });
            let mut levels: Levels<()> = Levels::new();
            let mut core: HashedCore<()> = HashedCore::new(512).expect("slots");
            for d in deadlines.drain(..) {
                levels.insert(d, ());
                core.insert(d, ());
            }
            let (l0, h0) = (levels.steps(), core.steps());
            for _ in 0..SAMPLES {
                let d = FLOOR + next(&mut state) % 10_000_000;
                levels.insert(d, ());
                core.insert(d, ());
            }
            let per = |c: u64| c as f64 / SAMPLES as f64;
            (
                k,
                [
                    per(pop),
                    per(earliest),
                    per(random),
                    per(core.steps() - h0),
                    per(levels.steps() - l0),
                ],
            )
        })
        .collect()
}

fn cost() -> (String, String) {
    let names = [
        "heap: comparisons per pop",
        "heap: comparisons per push of a new earliest deadline",
        "heap: comparisons per push of a random deadline",
        "hashed wheel: steps per insert",
        "hierarchical wheel: steps per insert",
    ];
    let rows = costs();
    let mut text = String::from("work per operation, counted, by timers pending:\n");
    let _ = write!(text, "{:>8}", "pending");
    for (i, _) in names.iter().enumerate() {
        let _ = write!(text, "  {:>6}", format!("[{}]", i + 1));
    }
    text.push('\n');
    for (k, v) in &rows {
        let _ = write!(text, "{:>8}", format!("2^{k}"));
        for x in v {
            let _ = write!(text, "  {x:>6.2}");
        }
        text.push('\n');
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(text, "  [{}] {name}", i + 1);
    }
    (plot_cost(&names, &rows), text)
}

/// How each series is drawn: colour, dashes (empty for a solid line) and
/// the shape of its points, so that two series on top of each other both
/// show.
const SERIES: [(&str, &str, Shape); 5] = [
    ("#b3261e", "", Shape::Circle),
    ("#e8710a", "7,4", Shape::Square),
    ("#a07800", "", Shape::Triangle),
    ("#1f5fa8", "7,4", Shape::Diamond),
    ("#1e8e3e", "", Shape::Circle),
];

#[derive(Clone, Copy)]
enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
}

/// One point's marker, hollow (white inside) so that lines show through.
fn marker(shape: Shape, x: f64, y: f64, color: &str) -> String {
    let style = format!(r#"fill="white" stroke="{color}" stroke-width="1.8""#);
    match shape {
        Shape::Circle => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" {style}/>"#),
        Shape::Square => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="7" height="7" {style}/>"#,
            x - 3.5,
            y - 3.5
        ),
        Shape::Triangle => format!(
            r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" {style}/>"#,
            x,
            y - 5.0,
            x - 4.5,
            y + 3.5,
            x + 4.5,
            y + 3.5
        ),
        Shape::Diamond => format!(
            r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" {style}/>"#,
            x,
            y - 5.0,
            x + 5.0,
            y,
            x,
            y + 5.0,
            x - 5.0,
            y
        ),
    }
}

/// The plot: on the left all five series from 0 to 22, on the right the
/// three lowest enlarged (0 to 3), where at full scale they lie within a
/// few pixels of each other; both against 2^10 to 2^20 pending; a legend
/// under both.
fn plot_cost(names: &[&str; 5], rows: &[(u32, [f64; 5])]) -> String {
    let (w, h) = (680.0, 440.0);
    let (top, plot_h) = (40.0, 230.0);
    let bottom = top + plot_h;
    // Two panels: (left edge, width, top of the y axis, tick step, series).
    let panels: [(f64, f64, f64, f64, &[usize]); 2] = [
        (70.0, 300.0, 22.0, 4.0, &[0, 1, 2, 3, 4]),
        (440.0, 210.0, 3.0, 0.5, &[2, 3, 4]),
    ];
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = write!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let titles = ["all five", "the three lowest, enlarged"];
    for (p, &(left, plot_w, y_max, step, series)) in panels.iter().enumerate() {
        let x = |k: u32| left + f64::from(k - 10) / 10.0 * plot_w;
        let y = |v: f64| bottom - v / y_max * plot_h;
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" {FONT} font-weight="bold" text-anchor="middle">{}</text>"#,
            left + plot_w / 2.0,
            top - 16.0,
            titles[p]
        );
        // Grid lines and the y axis' numbers.
        let mut v = 0.0;
        while v <= y_max + 1e-9 {
            let _ = write!(
                svg,
                r##"<line x1="{left}" y1="{yv:.1}" x2="{}" y2="{yv:.1}" stroke="#e6e6e6"/><text x="{}" y="{:.1}" {FONT} text-anchor="end">{}</text>"##,
                left + plot_w,
                left - 6.0,
                y(v) + 4.0,
                if step < 1.0 {
                    format!("{v:.1}")
                } else {
                    format!("{v}")
                },
                yv = y(v)
            );
            v += step;
        }
        let _ = write!(
            svg,
            r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/><line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>"##,
            left + plot_w
        );
        for (k, _) in rows {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="{}" {FONT} text-anchor="middle">2<tspan dy="-6" font-size="10">{k}</tspan></text>"#,
                x(*k),
                bottom + 20.0
            );
        }
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" {FONT} text-anchor="middle">timers pending (log scale)</text>"#,
            left + plot_w / 2.0,
            bottom + 40.0
        );
        // Solid lines first, dashed ones on top of them, then the points.
        let mut order: Vec<usize> = series.to_vec();
        order.sort_by_key(|&i| !SERIES[i].1.is_empty());
        for &i in &order {
            let (color, dashes, _) = SERIES[i];
            let points: Vec<String> = rows
                .iter()
                .map(|(k, v)| format!("{:.1},{:.1}", x(*k), y(v[i])))
                .collect();
            let dash = if dashes.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{dashes}""#)
            };
            let _ = write!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2.5"{dash}/>"#,
                points.join(" ")
            );
        }
        for &i in &order {
            let (color, _, shape) = SERIES[i];
            for (k, v) in rows {
                svg += &marker(shape, x(*k), y(v[i]), color);
            }
        }
    }
    // The y axis' label, once, beside the left panel.
    let _ = write!(
        svg,
        r#"<text x="18" y="{}" {FONT} text-anchor="middle" transform="rotate(-90 18 {})">comparisons or steps per operation</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    for (i, name) in names.iter().enumerate() {
        let (color, dashes, shape) = SERIES[i];
        let ly = bottom + 70.0 + i as f64 * 21.0;
        let dash = if dashes.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dashes}""#)
        };
        let _ = write!(
            svg,
            r#"<line x1="70" y1="{ly}" x2="106" y2="{ly}" stroke="{color}" stroke-width="2.5"{dash}/>{}<text x="116" y="{}" {FONT}>{name}</text>"#,
            marker(shape, 88.0, ly, color),
            ly + 4.0
        );
    }
    svg.push_str("</svg>");
    svg
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut text_out = None;
    let mut texts = String::new();
    let mut i = 0;
    while i < args.len() {
        let path = args
            .get(i + 1)
            .cloned()
            .unwrap_or_else(|| panic!("{} needs a file", args[i]));
        let (svg, text) = match args[i].as_str() {
            "--hashed" => hashed(),
            "--levels" => levels(),
            "--cost" => cost(),
            "--text" => {
                text_out = Some(path);
                i += 2;
                continue;
            }
            other => panic!("unknown argument {other}"),
        };
        std::fs::write(&path, svg).unwrap_or_else(|e| panic!("{path}: {e}"));
        texts.push_str(&text);
        texts.push('\n');
        i += 2;
    }
    print!("{texts}");
    if let Some(path) = text_out {
        std::fs::write(&path, texts).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
