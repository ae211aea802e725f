//! Timelines from real runs: what a timer thread did, tick by tick.
//!
//! The Java Timer article (listed on the book's Sources page) pictures a
//! timer thread's states over time: waiting, busy with nothing to run,
//! running a task. Here they are recorded from our own runs. While a scenario
//! runs, a [`Sampler`] reads the timer thread's CPU clock ([`crate::cpu`])
//! every tick, and the tasks and clients record events on a
//! [`Recorder`]. A [`Chart`] then draws one lane per run, as text
//! ([`Chart::text`]) or as SVG ([`Chart::svg`]).
//!
//! # The event convention
//!
//! - `"<task> start"` and `"<task> end"`, recorded by the task itself, on the
//!   timer thread (so the event's `who` is that thread), bound a span in which
//!   the thread runs `<task>`. [`spinning_task`] records both.
//! - `"<task> scheduled"`, recorded by any thread, puts a mark on the lane:
//!   the moment a client submitted `<task>`.
//!
//! Everything else is ignored.
//!
//! # What a tick shows
//!
//! At the middle of each tick: inside a task's span, the thread is
//! [`State::Running`]; else if it was running or ready to run for at least
//! [`BUSY_SHARE`] of the tick, [`State::Busy`] (busy with no task: a busy-wait);
//! else [`State::Waiting`].
//!
//! The rendering is pure (samples and events in, text or SVG out), so it is
//! tested without timing.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::cpu::ThreadCpu;
use crate::recorder::{Event, Recorder};

/// The demand (share of the tick the thread was running or ready to run, see
/// [`crate::cpu::CpuShare::demand`]) from which a tick without a task counts
/// as busy. Demand, not CPU time: a busy-waiting thread on a crowded machine
/// gets only part of a core, yet it never waits.
pub const BUSY_SHARE: f64 = 0.5;

/// What a thread was doing during one tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Blocked or asleep: no CPU.
    Waiting,
    /// On the CPU with no task to run: a busy-wait.
    Busy,
    /// Running a task.
    Running,
}

impl State {
    /// The character the text chart draws for this state.
    pub fn glyph(self) -> char {
        match self {
            State::Waiting => '.',
            State::Busy => '#',
            State::Running => '=',
        }
    }

    /// The SVG fill colour.
    fn colour(self) -> &'static str {
        match self {
            State::Waiting => "#c8c8c8",
            State::Busy => "#e4572e",
            State::Running => "#2e86ab",
        }
    }

    /// The legend's words.
    fn meaning(self) -> &'static str {
        match self {
            State::Waiting => "waiting (no CPU)",
            State::Busy => "busy, no task",
            State::Running => "running a task",
        }
    }

    const ALL: [State; 3] = [State::Waiting, State::Busy, State::Running];
}

/// CPU time one thread used, and time it waited for a core, during one tick;
/// times since the recorder's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Start of the tick.
    pub from: Duration,
    /// End of the tick.
    pub to: Duration,
    /// CPU time the thread used between `from` and `to`.
    pub cpu: Duration,
    /// Time it was ready to run but waited for a core between `from` and
    /// `to`.
    pub waited: Duration,
}

impl Sample {
    /// Running or ready to run, over wall time: 1.0 for a thread that never
    /// blocked during the tick, however crowded the machine.
    pub fn demand(&self) -> f64 {
        let wall = self.to.saturating_sub(self.from).as_secs_f64();
        if wall == 0.0 {
            0.0
        } else {
            ((self.cpu + self.waited).as_secs_f64() / wall).min(1.0)
        }
    }
}

/// A task's run on the lane's thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The task's name (`"task 1"`).
    pub label: String,
    /// When the task started.
    pub start: Duration,
    /// When it ended (`Duration::MAX` if it had not ended by the last event).
    pub end: Duration,
}

/// A moment marked on a lane: a client submitted a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// When.
    pub at: Duration,
    /// What (`"task 3 scheduled"`).
    pub label: String,
}

/// One thread's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// The lane's title, drawn on its left.
    pub title: String,
    /// The thread's CPU, tick by tick.
    pub samples: Vec<Sample>,
    /// The tasks it ran.
    pub spans: Vec<Span>,
    /// Moments to mark.
    pub marks: Vec<Mark>,
}

impl Lane {
    /// A lane for the thread named `thread`, from its samples and a run's
    /// events, read by the convention in the module docs.
    pub fn from_events(
        title: impl Into<String>,
        thread: &str,
        samples: Vec<Sample>,
        events: &[Event],
    ) -> Lane {
        let mut spans: Vec<Span> = Vec::new();
        let mut marks = Vec::new();
        for event in events {
            if let Some(task) = event.what.strip_suffix(" scheduled") {
                marks.push(Mark {
                    at: event.at,
                    label: format!("{task} scheduled"),
                });
            } else if event.who != thread {
                continue;
            } else if let Some(task) = event.what.strip_suffix(" start") {
                spans.push(Span {
                    label: task.to_owned(),
                    start: event.at,
                    end: Duration::MAX,
                });
            } else if let Some(task) = event.what.strip_suffix(" end") {
                let open = spans
                    .iter_mut()
                    .rev()
                    .find(|s| s.label == task && s.end == Duration::MAX);
                if let Some(span) = open {
                    span.end = event.at;
                }
            }
        }
        Lane {
            title: title.into(),
            samples,
            spans,
            marks,
        }
    }

    /// The thread's state at `t`, or `None` where it was not sampled.
    pub fn state_at(&self, t: Duration) -> Option<State> {
        let sample = self.samples.iter().find(|s| s.from <= t && t < s.to)?;
        Some(if self.spans.iter().any(|s| s.start <= t && t < s.end) {
            State::Running
        } else if self.demand_outside_tasks(sample) >= BUSY_SHARE {
            State::Busy
        } else {
            State::Waiting
        })
    }

    /// The sample's demand outside the tasks' spans: a tick that a task
    /// starts or ends in holds the task's CPU too, which must not make the
    /// rest of the tick look busy. A task counts as demanding a full core.
    fn demand_outside_tasks(&self, sample: &Sample) -> f64 {
        let in_tasks: Duration = self
            .spans
            .iter()
            .map(|s| {
                s.end
                    .min(sample.to)
                    .saturating_sub(s.start.max(sample.from))
            })
            .sum();
        Sample {
            from: sample.from + in_tasks.min(sample.to - sample.from),
            to: sample.to,
            cpu: (sample.cpu + sample.waited).saturating_sub(in_tasks),
            waited: Duration::ZERO,
        }
        .demand()
    }

    /// When the last sample ends.
    fn end(&self) -> Duration {
        self.samples.iter().map(|s| s.to).max().unwrap_or_default()
    }
}

/// Lanes on one time axis. See the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// One column of the chart: one character of text, or a share of
    /// [`Chart::SVG_WIDTH`] in SVG.
    pub tick: Duration,
    /// The axis' unit: `kit::ms(10)` with `unit_name` `"s"` labels a demo
    /// replayed at 10 ms of real time per second of its story, in the
    /// story's seconds.
    pub unit: Duration,
    /// The unit's symbol on the axis.
    pub unit_name: String,
    /// The lanes, top to bottom.
    pub lanes: Vec<Lane>,
}

impl Chart {
    /// A chart of a demo whose story is told in seconds ("task 1 is due at
    /// 30 s"), replayed at `second` of real time per second of the story:
    /// one column every two story seconds, the axis in story seconds.
    pub fn in_story_seconds(second: Duration, lanes: Vec<Lane>) -> Chart {
        Chart {
            tick: second * 2,
            unit: second,
            unit_name: "s".into(),
            lanes,
        }
    }

    /// Columns between two labels on the axis.
    pub const LABEL_EVERY: usize = 10;
    /// The widest line of [`Chart::text`]: the book's output blocks hold
    /// about 90 characters. A longer chart is folded into parts, one under
    /// the other, each with its own axis.
    pub const TEXT_WIDTH: usize = 88;
    /// The width of [`Chart::svg`]'s picture, in pixels: the book's column
    /// is 750 px wide on screen and about 740 px on a printed page, so the
    /// picture is shown at its own size, never shrunk, in both.
    pub const SVG_WIDTH: usize = 720;

    /// How many columns the longest lane needs.
    pub fn columns(&self) -> usize {
        let end = self.lanes.iter().map(Lane::end).max().unwrap_or_default();
        end.as_nanos().div_ceil(self.tick.as_nanos().max(1)) as usize
    }

    /// The column that holds time `t`.
    fn column(&self, t: Duration) -> usize {
        (t.as_nanos() / self.tick.as_nanos().max(1)) as usize
    }

    /// The middle of column `i`.
    fn middle(&self, i: usize) -> Duration {
        self.tick * i as u32 + self.tick / 2
    }

    /// Column `i`'s left edge, as an axis label: `"20s"`.
    fn label(&self, i: usize) -> String {
        let t = (self.tick * i as u32).as_secs_f64() / self.unit.as_secs_f64();
        if (t - t.round()).abs() < 1e-6 {
            format!("{}{}", t.round(), self.unit_name)
        } else {
            format!("{t:.1}{}", self.unit_name)
        }
    }

    /// One column's length, in the axis' unit: `"2 s"`.
    fn tick_in_units(&self) -> String {
        let t = self.tick.as_secs_f64() / self.unit.as_secs_f64();
        if (t - t.round()).abs() < 1e-6 {
            format!("{} {}", t.round(), self.unit_name)
        } else {
            format!("{t:.2} {}", self.unit_name)
        }
    }

    /// What one axis unit is in real time, when it is not a millisecond:
    /// `"1 s = 10 ms of real time"`.
    fn scale_note(&self) -> Option<String> {
        (self.unit != Duration::from_millis(1)).then(|| {
            let ms = self.unit.as_secs_f64() * 1000.0;
            format!("1 {} = {ms} ms of real time", self.unit_name)
        })
    }

    /// The chart as fixed-width text: an axis, then for each lane a row of
    /// task names, a row of states (one character per tick) and a row of
    /// marks, then a legend. No line is wider than [`Chart::TEXT_WIDTH`]:
    /// a chart with more columns than that is folded into parts of whole
    /// axis labels, as even as can be, each with its own axis.
    pub fn text(&self) -> String {
        let cols = self.columns();
        let pad = self.lanes.iter().map(|l| l.title.len()).max().unwrap_or(0) + 2;
        let room = Self::TEXT_WIDTH.saturating_sub(pad);
        let most = (room / Self::LABEL_EVERY * Self::LABEL_EVERY).max(Self::LABEL_EVERY);
        let parts = if cols <= room { 1 } else { cols.div_ceil(most) };
        let per = cols.div_ceil(parts).div_ceil(Self::LABEL_EVERY).max(1) * Self::LABEL_EVERY;
        let mut out = String::new();
        let mut from = 0;
        loop {
            let to = (from + per).min(cols);
            if from > 0 {
                out.push('\n');
            }
            self.text_part(&mut out, pad, from, to, to == cols);
            from = to;
            if from >= cols {
                break;
            }
        }

        let legend: Vec<String> = State::ALL
            .iter()
            .map(|s| format!("{} {}", s.glyph(), s.meaning()))
            .collect();
        let legend = legend.join("   ");
        let note = format!(
            "(one column = {}{})",
            self.tick_in_units(),
            self.scale_note()
                .map(|n| format!("; {n}"))
                .unwrap_or_default()
        );
        if legend.len() + 3 + note.len() <= Self::TEXT_WIDTH {
            push_line(&mut out, &format!("{legend}   {note}"));
        } else {
            push_line(&mut out, &legend);
            push_line(&mut out, &note);
        }
        out
    }

    /// Columns `from..to` of the chart as text, appended to `out`; `last`
    /// for the part that ends the chart (its marks at the very end belong
    /// to it).
    fn text_part(&self, out: &mut String, pad: usize, from: usize, to: usize, last: bool) {
        let width = Self::TEXT_WIDTH.max(pad + to - from);
        let inside = |c: usize| (from <= c && c < to) || (last && c == to);

        let mut labels = Row::new(width);
        let mut ruler = String::new();
        for i in from..=to {
            if i % Self::LABEL_EVERY == 0 {
                labels.put_within(pad + i - from, &self.label(i));
                ruler.push('+');
            } else {
                ruler.push('-');
            }
        }
        push_line(out, &labels.text());
        push_line(out, &format!("{:pad$}{ruler}", ""));

        for lane in &self.lanes {
            let spans: Vec<&Span> = lane
                .spans
                .iter()
                .filter(|s| self.column(s.start) < to && s.end > self.tick * from as u32)
                .collect();
            if !spans.is_empty() {
                let mut names = Row::new(width);
                for span in spans {
                    // A task that began in an earlier part is named again.
                    let at = self.column(span.start).max(from);
                    names.put_near(pad + at - from, &span.label);
                }
                push_line(out, &names.text());
            }
            let states: String = (from..to)
                .map(|i| lane.state_at(self.middle(i)).map_or(' ', State::glyph))
                .collect();
            push_line(out, &format!("{:<pad$}{states}", lane.title));
            let marks: Vec<&Mark> = lane
                .marks
                .iter()
                .filter(|m| inside(self.column(m.at)))
                .collect();
            if !marks.is_empty() {
                let mut row = Row::new(width);
                for mark in marks {
                    row.put_mark(pad + self.column(mark.at) - from, &mark.label);
                }
                push_line(out, &row.text());
            }
        }
    }

    /// The chart as a standalone SVG image, [`Chart::SVG_WIDTH`] pixels
    /// wide: the same lanes as coloured bars, task names on their bars (or
    /// above a bar too narrow for the name), dashed lines at the marks, an
    /// axis and a legend.
    pub fn svg(&self) -> String {
        const TOP: usize = 34;
        const LANE: usize = 56;
        const BAR: usize = 22;
        /// Rough widths of a character of sans-serif text, bold 12 px and
        /// plain 12 px, for placing words without measuring them.
        const BOLD: f64 = 7.6;
        const PLAIN: f64 = 6.8;
        let width = Self::SVG_WIDTH;
        let cols = self.columns().max(1);
        let titles = self
            .lanes
            .iter()
            .map(|l| l.title.chars().count())
            .max()
            .unwrap_or(0);
        let left = (16.0 + titles as f64 * BOLD).round();
        let px = (width as f64 - left - 24.0) / cols as f64;
        let x = |t: Duration| left + t.as_secs_f64() / self.tick.as_secs_f64() * px;
        let col_x = |i: usize| left + i as f64 * px;

        // The legend: three swatches, then the scale note, on a second row
        // if the first has no room for it.
        let note = self.scale_note().unwrap_or_default();
        let note_x = 8.0 + 3.0 * 150.0;
        let note_row = usize::from(note_x + note.chars().count() as f64 * PLAIN > width as f64);
        let axis_bottom = TOP + self.lanes.len() * LANE;
        let height = axis_bottom + 40 + 18 * note_row;

        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(
            svg,
            r#"<rect width="{width}" height="{height}" fill="white"/>"#
        );

        // The axis: a label every LABEL_EVERY columns, or every few of those
        // when the labels would otherwise run together.
        let widest = (0..=cols)
            .step_by(Self::LABEL_EVERY)
            .map(|i| self.label(i).chars().count())
            .max()
            .unwrap_or(1) as f64;
        let mut step = Self::LABEL_EVERY;
        while (step as f64) * px < widest * PLAIN + 10.0 && step < cols {
            step += Self::LABEL_EVERY;
        }
        for i in (0..=cols).step_by(step) {
            let xi = col_x(i);
            let _ = writeln!(
                svg,
                r##"<line x1="{xi:.1}" y1="{}" x2="{xi:.1}" y2="{axis_bottom}" stroke="#eeeeee"/>"##,
                TOP - 6
            );
            let _ = writeln!(
                svg,
                r#"<text x="{xi:.1}" y="{}" text-anchor="middle">{}</text>"#,
                TOP - 10,
                escape(&self.label(i))
            );
        }

        for (n, lane) in self.lanes.iter().enumerate() {
            let top = TOP + n * LANE + 14;
            let middle = top + BAR / 2;
            let _ = writeln!(
                svg,
                r#"<text x="8" y="{}" font-weight="bold">{}</text>"#,
                middle + 4,
                escape(&lane.title)
            );
            // One bar per run of equal states.
            let states: Vec<Option<State>> =
                (0..cols).map(|i| lane.state_at(self.middle(i))).collect();
            let mut i = 0;
            while i < cols {
                let run = states[i..].iter().take_while(|s| **s == states[i]).count();
                if let Some(state) = states[i] {
                    let (y, h) = match state {
                        State::Waiting => (middle - 3, 6),
                        _ => (top, BAR),
                    };
                    let _ = writeln!(
                        svg,
                        r#"<rect x="{:.1}" y="{y}" width="{:.1}" height="{h}" fill="{}"><title>{}</title></rect>"#,
                        col_x(i),
                        run as f64 * px,
                        state.colour(),
                        state.meaning()
                    );
                }
                i += run;
            }
            for span in &lane.spans {
                let end = span.end.min(lane.end());
                let (from, to) = (x(span.start), x(end));
                let fits = to - from >= span.label.chars().count() as f64 * PLAIN + 4.0;
                let _ = if fits {
                    writeln!(
                        svg,
                        r#"<text x="{:.1}" y="{}" text-anchor="middle" fill="white">{}</text>"#,
                        (from + to) / 2.0,
                        middle + 4,
                        escape(&span.label)
                    )
                } else {
                    writeln!(
                        svg,
                        r##"<text x="{:.1}" y="{}" text-anchor="middle" font-size="11" fill="#1b4f66">{}</text>"##,
                        (from + to) / 2.0,
                        top - 3,
                        escape(&span.label)
                    )
                };
            }
            for mark in &lane.marks {
                let xm = x(mark.at);
                let _ = writeln!(
                    svg,
                    r##"<line x1="{xm:.1}" y1="{}" x2="{xm:.1}" y2="{}" stroke="#333333" stroke-dasharray="3,3"/>"##,
                    top - 4,
                    top + BAR + 4
                );
                // Near the right edge, the word ends at the mark instead.
                let words = mark.label.chars().count() as f64 * 6.0;
                let anchor = if xm + words / 2.0 > width as f64 - 4.0 {
                    "end"
                } else {
                    "middle"
                };
                let _ = writeln!(
                    svg,
                    r#"<text x="{xm:.1}" y="{}" text-anchor="{anchor}" font-size="11">{}</text>"#,
                    top + BAR + 15,
                    escape(&mark.label)
                );
            }
        }

        // The legend.
        let y = axis_bottom + 16;
        let mut lx = 8;
        for state in State::ALL {
            let _ = writeln!(
                svg,
                r#"<rect x="{lx}" y="{}" width="14" height="10" fill="{}"/>"#,
                y - 9,
                state.colour()
            );
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{y}">{}</text>"#,
                lx + 18,
                state.meaning()
            );
            lx += 150;
        }
        let (nx, ny) = if note_row == 1 {
            (8.0, y + 18)
        } else {
            (note_x, y)
        };
        let _ = writeln!(
            svg,
            r##"<text x="{nx}" y="{ny}" fill="#666666">{}</text>"##,
            escape(&note)
        );
        svg.push_str("</svg>\n");
        svg
    }
}

/// A line of text that words are put into at given columns; a word that
/// would overlap one already there is left out.
struct Row(Vec<char>);

impl Row {
    fn new(width: usize) -> Row {
        Row(vec![' '; width])
    }

    fn put(&mut self, at: usize, word: &str) {
        let end = at + word.chars().count();
        if self.0.len() < end {
            self.0.resize(end, ' ');
        }
        // Keep a blank before the word, so two words never run together.
        let from = at.saturating_sub(1);
        if self.0[from..end].iter().all(|c| *c == ' ') {
            for (i, c) in word.chars().enumerate() {
                self.0[at + i] = c;
            }
        }
    }

    /// Puts a word at `at` if it ends within the row's width.
    fn put_within(&mut self, at: usize, word: &str) {
        if at + word.chars().count() <= self.0.len() {
            self.put(at, word);
        }
    }

    /// Puts a name near `at`: there if it fits in the row's width, else
    /// moved left just enough to end at the edge.
    fn put_near(&mut self, at: usize, word: &str) {
        let len = word.chars().count();
        let at = at.min(self.0.len().saturating_sub(len));
        self.put(at, word);
    }

    /// Puts a mark's caret at `at` and its label after it (`^ cancel`), or
    /// before it (`cancel ^`) where the label would pass the row's width.
    fn put_mark(&mut self, at: usize, label: &str) {
        let after = format!("^ {label}");
        if at + after.chars().count() <= self.0.len() {
            self.put(at, &after);
        } else {
            let before = format!("{label} ^");
            let len = before.chars().count();
            if at + 1 >= len {
                self.put(at + 1 - len, &before);
            } else {
                self.put(at, "^");
            }
        }
    }

    fn text(&self) -> String {
        self.0.iter().collect::<String>().trim_end().to_owned()
    }
}

fn push_line(out: &mut String, line: &str) {
    out.push_str(line.trim_end());
    out.push('\n');
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Samples one named thread's CPU clock every tick, on a thread of its own.
pub struct Sampler {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Vec<Sample>>,
}

impl Sampler {
    /// Starts sampling the thread named `thread` every `tick`, with times
    /// measured from `rec`'s start (ticks fall on multiples of `tick`).
    ///
    /// # Errors
    /// If no single thread has that name (see [`ThreadCpu::named`]), or the
    /// sampler's thread cannot be spawned.
    pub fn start(thread: &str, rec: &Recorder, tick: Duration) -> std::io::Result<Sampler> {
        let cpu = ThreadCpu::named(thread)?;
        let stop = Arc::new(AtomicBool::new(false));
        let start = rec.start();
        let handle = {
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name(crate::threads::unique_name("sampler"))
                .spawn(move || sample(cpu, start, tick, &stop))?
        };
        Ok(Sampler { stop, handle })
    }

    /// Stops sampling (within a tick) and returns the samples.
    ///
    /// Sampling also stops by itself when the thread exits.
    pub fn finish(self) -> Vec<Sample> {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.join().unwrap_or_default()
    }
}

/// The sampler thread: reads `cpu` at every multiple of `tick` after `start`.
fn sample(cpu: ThreadCpu, start: Instant, tick: Duration, stop: &AtomicBool) -> Vec<Sample> {
    let mut samples = Vec::new();
    let (Ok(mut used), Ok(mut waited)) = (cpu.used(), cpu.waited_for_cpu()) else {
        return samples;
    };
    let mut from = start.elapsed();
    let mut next = (from.as_nanos() / tick.as_nanos().max(1)) as u32 + 1;
    while !stop.load(Ordering::SeqCst) {
        let deadline = start + tick * next;
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        let (Ok(now_used), Ok(now_waited)) = (cpu.used(), cpu.waited_for_cpu()) else {
            break;
        };
        let to = start.elapsed();
        samples.push(Sample {
            from,
            to,
            cpu: now_used.saturating_sub(used),
            waited: now_waited.saturating_sub(waited),
        });
        (from, used, waited) = (to, now_used, now_waited);
        // A late wake-up skips the ticks it missed instead of bunching up.
        next = (to.as_nanos() / tick.as_nanos().max(1)) as u32 + 1;
    }
    samples
}

/// Sleeps until `at` after `rec`'s start: how a scenario's client acts at
/// a given moment of the run (for examples; tests wait on events instead).
pub fn sleep_until(rec: &Recorder, at: Duration) {
    std::thread::sleep((rec.start() + at).saturating_duration_since(Instant::now()));
}

/// Spins on the CPU for `d`, as the tasks of the Java Timer article's demos
/// do: a task that keeps the thread busy, so the timeline shows it running.
pub fn spin(d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// A task that records `"<label> start"`, spins for `d`, and records
/// `"<label> end"`: the convention [`Lane::from_events`] reads.
pub fn spinning_task(rec: &Recorder, label: &str, d: Duration) -> impl FnOnce() + Send + 'static {
    let (rec, label) = (rec.clone(), label.to_owned());
    move || {
        rec.record(format!("{label} start"));
        spin(d);
        rec.record(format!("{label} end"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn event(at: u64, who: &str, what: &str) -> Event {
        Event {
            at: ms(at),
            who: who.into(),
            what: what.into(),
        }
    }

    /// Ten-millisecond samples: `cpu[i]` ms of CPU in tick `i`.
    fn samples(cpu: &[u64]) -> Vec<Sample> {
        (0..cpu.len() as u64)
            .map(|i| Sample {
                from: ms(10 * i),
                to: ms(10 * i + 10),
                cpu: ms(cpu[i as usize]),
                waited: Duration::ZERO,
            })
            .collect()
    }

    #[test]
    fn spans_come_from_the_lane_threads_start_and_end_events() {
        let events = [
            event(0, "main", "task 1 scheduled"),
            event(20, "timer", "task 1 start"),
            event(40, "other", "task 2 start"), // another thread: ignored
            event(50, "timer", "task 1 end"),
            event(60, "timer", "task 3 start"), // never ends
            event(70, "timer", "something else"),
        ];
        let lane = Lane::from_events("lane", "timer", samples(&[0; 8]), &events);
        assert_eq!(
            lane.spans,
            [
                Span {
                    label: "task 1".into(),
                    start: ms(20),
                    end: ms(50)
                },
                Span {
                    label: "task 3".into(),
                    start: ms(60),
                    end: Duration::MAX
                },
            ]
        );
        assert_eq!(
            lane.marks,
            [Mark {
                at: ms(0),
                label: "task 1 scheduled".into()
            }]
        );
    }

    #[test]
    fn a_task_starting_late_in_a_tick_does_not_make_the_tick_busy() {
        // The task starts at 17 ms and spins: 3 ms of the tick's 10 ms of
        // CPU are its own. Outside it, 0 of 7 ms: waiting.
        let events = [event(17, "t", "a start"), event(40, "t", "a end")];
        let lane = Lane::from_events("lane", "t", samples(&[0, 3, 10, 10]), &events);
        assert_eq!(lane.state_at(ms(15)), Some(State::Waiting));
        assert_eq!(lane.state_at(ms(25)), Some(State::Running));
    }

    #[test]
    fn a_tick_is_running_busy_or_waiting() {
        let events = [event(20, "t", "a start"), event(30, "t", "a end")];
        let lane = Lane::from_events("lane", "t", samples(&[9, 1, 10, 0]), &events);
        let states: Vec<_> = (0..5).map(|i| lane.state_at(ms(10 * i + 5))).collect();
        assert_eq!(
            states,
            [
                Some(State::Busy),
                Some(State::Waiting),
                Some(State::Running),
                Some(State::Waiting),
                None
            ]
        );
    }

    fn chart() -> Chart {
        // 1 "second" = 10 ms; one column = 1 second.
        let busy = Lane::from_events(
            "naive",
            "n",
            samples(&[10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 0, 0]),
            &[event(30, "n", "task 1 start"), event(60, "n", "task 1 end")],
        );
        let sleepy = Lane::from_events(
            "sleep-based",
            "s",
            samples(&[0, 0, 0, 10, 10, 10, 0, 0, 0, 0, 0]),
            &[
                event(30, "s", "task 1 start"),
                event(60, "s", "task 1 end"),
                event(80, "main", "task 2 scheduled"),
            ],
        );
        Chart {
            tick: ms(10),
            unit: ms(10),
            unit_name: "s".into(),
            lanes: vec![busy, sleepy],
        }
    }

    #[test]
    fn the_text_chart_has_an_axis_lanes_marks_and_a_legend() {
        let expected = [
            "             0s        10s",
            "             +---------+--",
            "                task 1",
            "naive        ###===####..",
            "                task 1",
            "sleep-based  ...===.....",
            "                     ^ task 2 scheduled",
            ". waiting (no CPU)   # busy, no task   = running a task",
            "(one column = 1 s; 1 s = 10 ms of real time)",
            "",
        ]
        .join("\n");
        assert_eq!(chart().text(), expected);
    }

    #[test]
    fn a_long_chart_is_folded_to_the_books_width() {
        // 130 columns of 1 ms: a task from 20 to 23 ms and from 100 to 103
        // ms, marks at 5 ms and at the very end.
        let samples: Vec<Sample> = (0..130)
            .map(|i| Sample {
                from: ms(i),
                to: ms(i + 1),
                cpu: Duration::ZERO,
                waited: Duration::ZERO,
            })
            .collect();
        let events = [
            event(5, "main", "t1 scheduled"),
            event(20, "w", "t1 start"),
            event(23, "w", "t1 end"),
            event(100, "w", "t2 start"),
            event(103, "w", "t2 end"),
            event(130, "main", "the last one scheduled"),
        ];
        let chart = Chart {
            tick: ms(1),
            unit: ms(1),
            unit_name: "ms".into(),
            lanes: vec![Lane::from_events("worker w1", "w", samples, &events)],
        };
        let text = chart.text();
        assert!(text.lines().all(|l| l.len() <= Chart::TEXT_WIDTH), "{text}");
        // Two parts of 70 and 60 columns, each with its axis.
        let lanes: Vec<&str> = text.lines().filter(|l| l.starts_with("worker")).collect();
        assert_eq!(lanes.len(), 2, "{text}");
        assert_eq!(lanes[0].len() - 11, 70);
        assert_eq!(lanes[1].len() - 11, 60);
        // 0 to 70 ms, then 70 to 130 ms.
        assert_eq!(text.matches("0ms").count(), 15, "{text}");
        // Every column's state is there once, in order.
        let states: String = lanes.iter().map(|l| &l[11..]).collect();
        assert_eq!(states.len(), 130);
        assert_eq!(&states[19..24], ".===.");
        assert_eq!(&states[99..104], ".===.");
        // The mark at the very end points back at its column.
        assert!(text.contains("the last one scheduled ^\n"), "{text}");
        assert!(
            text.contains("\n                ^ t1 scheduled\n"),
            "{text}"
        );
    }

    #[test]
    fn the_svg_draws_a_bar_per_run_of_states() {
        let svg = chart().svg();
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        // naive: busy, running, busy, waiting; sleep-based: waiting,
        // running, waiting. Plus three legend swatches and the background.
        assert_eq!(svg.matches("<rect ").count(), 4 + 3 + 3 + 1);
        assert_eq!(svg.matches("<title>busy, no task</title>").count(), 2);
        assert!(svg.contains(">task 2 scheduled</text>"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains(">10s</text>"));
        assert!(svg.contains(&format!(r#"width="{}""#, Chart::SVG_WIDTH)));
    }

    #[test]
    fn text_is_escaped_in_svg() {
        let mut chart = chart();
        chart.lanes[0].title = "a<b & c".into();
        assert!(chart.svg().contains("a&lt;b &amp; c"));
    }

    #[test]
    fn the_sampler_sees_a_spinning_thread_busy() {
        let rec = Recorder::new();
        let name = crate::threads::unique_name("kit-tl");
        let done = Arc::new(AtomicBool::new(false));
        let spinner = {
            let done = Arc::clone(&done);
            std::thread::Builder::new()
                .name(name.clone())
                .spawn(move || {
                    while !done.load(Ordering::SeqCst) {
                        std::hint::spin_loop();
                    }
                })
                .unwrap()
        };
        let sampler = Sampler::start(&name, &rec, crate::ms(10)).unwrap();
        // The measurement window, not a margin.
        std::thread::sleep(crate::ms(100));
        let samples = sampler.finish();
        done.store(true, Ordering::SeqCst);
        spinner.join().unwrap();
        let demand: Duration = samples.iter().map(|s| s.cpu + s.waited).sum();
        let wall = samples.last().unwrap().to - samples[0].from;
        assert!(samples.len() >= 5, "{samples:?}");
        // In the middle of the gap between a thread that spins (it demands
        // the whole window) and one that sleeps (none of it): an idle 2-core
        // machine running the other tests beside this one has read 0.79.
        assert!(
            demand.as_secs_f64() > 0.5 * wall.as_secs_f64(),
            "{samples:?}"
        );
    }
}

/// Where an example that draws a [`Chart`] writes it: `--text PATH` and
/// `--svg PATH`, as `cargo xtask timelines` passes them. Without
/// `--text`, the text goes to standard output.
#[derive(Debug, Default)]
pub struct Outputs {
    text: Option<String>,
    svg: Option<String>,
}

impl Outputs {
    /// Reads `--text PATH` and `--svg PATH` from the command line.
    ///
    /// # Errors
    /// An argument it does not know, or a flag without its path.
    pub fn from_args() -> Result<Outputs, String> {
        Outputs::parse(std::env::args().skip(1))
    }

    fn parse(mut args: impl Iterator<Item = String>) -> Result<Outputs, String> {
        let mut outputs = Outputs::default();
        while let Some(arg) = args.next() {
            let slot = match arg.as_str() {
                "--text" => &mut outputs.text,
                "--svg" => &mut outputs.svg,
                other => {
                    return Err(format!(
                        "unknown argument {other:?}; use --text PATH, --svg PATH"
                    ));
                }
            };
            *slot = Some(args.next().ok_or(format!("{arg} needs a path"))?);
        }
        Ok(outputs)
    }

    /// Writes `text` to the `--text` path (or prints it) and, if an
    /// `--svg` path was given, the picture `svg` makes.
    ///
    /// # Errors
    /// A file that cannot be written, named in the message.
    pub fn write(&self, text: &str, svg: impl FnOnce() -> String) -> Result<(), String> {
        match &self.text {
            Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?,
            None => print!("{text}"),
        }
        if let Some(path) = &self.svg {
            std::fs::write(path, svg()).map_err(|e| format!("{path}: {e}"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod outputs_tests {
    use super::Outputs;

    fn parse(args: &[&str]) -> Result<Outputs, String> {
        Outputs::parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn reads_both_paths_in_any_order() {
        let o = parse(&["--svg", "a.svg", "--text", "a.txt"]).unwrap();
        assert_eq!(o.text.as_deref(), Some("a.txt"));
        assert_eq!(o.svg.as_deref(), Some("a.svg"));
    }

    #[test]
    fn refuses_an_unknown_argument_and_a_missing_path() {
        assert!(parse(&["--png", "x"]).unwrap_err().contains("--png"));
        assert_eq!(parse(&["--svg"]).unwrap_err(), "--svg needs a path");
    }
}
