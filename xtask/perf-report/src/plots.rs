//! The performance chapter's plots, as SVG.

use std::path::{Path, PathBuf};

use devkit::cmd::Result;
use plotters::prelude::*;

use crate::load::*;

pub(crate) fn plots(run: &Run, out: &Path) -> Result {
    schedule_cost(run, &out.join("schedule-cost.svg"))
        .map_err(|e| format!("schedule-cost.svg: {e}"))?;
    insert_cost(run, &out.join("insert-cost.svg")).map_err(|e| format!("insert-cost.svg: {e}"))?;
    lateness(run, &out.join("lateness.svg")).map_err(|e| format!("lateness.svg: {e}"))?;
    herd(run, &out.join("herd.svg")).map_err(|e| format!("herd.svg: {e}"))?;
    throughput(run, &out.join("throughput.svg")).map_err(|e| format!("throughput.svg: {e}"))?;
    Ok(())
}

pub(crate) type Plot = std::result::Result<(), Box<dyn std::error::Error>>;

pub(crate) const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// "10^5" as a count: 100000.
pub(crate) fn pending(size: &str) -> Option<f64> {
    let power: i32 = size.strip_prefix("10^")?.parse().ok()?;
    Some(10f64.powi(power))
}

/// One line per series: (label, (count pending, its spread) at each size
/// the run measured).
pub(crate) type Series = Vec<(String, Vec<(f64, Spread)>)>;

/// `subject`'s spreads in `bench`, at each of `sizes`, in the group
/// `"<input>, <size> pending"`.
pub(crate) fn by_size(
    run: &Run,
    bench: &str,
    input: &str,
    subject: &str,
    sizes: &[&str],
) -> Vec<(f64, Spread)> {
    sizes
        .iter()
        .filter_map(|size| {
            let g = format!("{input}, {size} pending");
            Some((pending(size)?, Spread::of(run, bench, &g, subject)?))
        })
        .collect()
}

/// Time per call against the count pending (log-scaled): each series'
/// median as a line, each size's range over the rounds as a bar from
/// the least round to the greatest. `log_time` scales the time axis too,
/// for series an order of magnitude apart.
pub(crate) fn pending_plot(path: &PathBuf, title: &str, series: Series, log_time: bool) -> Plot {
    let spreads = || series.iter().flat_map(|(_, p)| p.iter().map(|(_, s)| *s));
    let top = spreads().map(|s| s.max).fold(10.0, f64::max) * 1.1;
    let bottom = spreads().map(|s| s.min).fold(top, f64::min) * 0.8;
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, TITLE_FONT)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(64);
    let x = (600f64..1.6e6f64).log_scale();
    if log_time {
        let chart = builder.build_cartesian_2d(x, (bottom.max(0.1)..top).log_scale())?;
        draw_pending(chart, series)?;
    } else {
        let chart = builder.build_cartesian_2d(x, 0f64..top)?;
        draw_pending(chart, series)?;
    }
    root.present()?;
    Ok(())
}

/// The lines, points, ranges and legend of [`pending_plot`], on either
/// time axis.
pub(crate) fn draw_pending<'a, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<LogCoord<f64>, Y>>,
    series: Series,
) -> Plot
where
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .label_style(LABEL_FONT)
        .axis_desc_style(LABEL_FONT)
        .x_desc("timers pending")
        .y_desc("ns per call")
        .x_label_formatter(&|x| format!("10^{:.0}", x.log10()))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let count = series.len() as f64;
    for (i, (label, points)) in series.into_iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        // Each series a little to the side of the others, so that their
        // ranges do not hide one another.
        let shift = 1.0 + 0.06 * (i as f64 - (count - 1.0) / 2.0);
        let medians: Vec<(f64, f64)> = points.iter().map(|(n, s)| (n * shift, s.median)).collect();
        chart
            .draw_series(LineSeries::new(medians.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart.draw_series(
            medians
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
        chart.draw_series(points.iter().map(|(n, s)| {
            PathElement::new(
                vec![(n * shift, s.min), (n * shift, s.max)],
                colour.stroke_width(1),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .label_font(LABEL_FONT)
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// One schedule on random inputs against the count pending: the two heap
/// timers, their floors, and the peer (the one measured beside the
/// `Timer`).
pub(crate) fn schedule_cost(run: &Run, path: &PathBuf) -> Plot {
    let series = [
        (TIMER, "timer_schedule", TIMER),
        ("its floor", "timer_schedule", TIMER_FLOOR),
        (POOL, "scheduled_pool", POOL),
        ("its floor, with an Arc", "scheduled_pool", POOL_FLOOR),
        (PEER, "timer_schedule", PEER),
    ]
    .into_iter()
    .map(|(label, bench, subject)| {
        (
            label.to_owned(),
            by_size(run, bench, "random", subject, &FAIR_SIZES),
        )
    })
    .collect();
    pending_plot(
        path,
        "One schedule, random inputs (ns: median, range of the rounds)",
        series,
        false,
    )
}

/// One insert (an empty job) into each wheel and a bare heap, against the
/// count pending.
pub(crate) fn insert_cost(run: &Run, path: &PathBuf) -> Plot {
    let series = [
        ("hierarchical wheel's levels (stage 7)", LEVELS),
        ("hashed wheel's core (stage 7)", HASHED_CORE),
        ("hierarchical_hash_wheel_timer, plain", QUAD),
        ("hierarchical_hash_wheel_timer, cancellable", CANCELLABLE),
        ("bare BinaryHeap::push", HEAP_PUSH),
    ]
    .into_iter()
    .map(|(label, subject)| {
        (
            label.to_owned(),
            by_size(
                run,
                "wheel_schedule",
                "empty job",
                subject,
                &FAIR_WHEEL_SIZES,
            ),
        )
    })
    .collect();
    pending_plot(
        path,
        "One insert, an empty job (ns, log scale: median, range of the rounds)",
        series,
        true,
    )
}

/// A horizontal bar: its label, its value, and the range to draw over it
/// (the least and the greatest round), if it has one.
pub(crate) struct Bar {
    pub(crate) label: String,
    pub(crate) value: f64,
    pub(crate) range: Option<(f64, f64)>,
}

impl Bar {
    pub(crate) fn plain(label: String, value: f64) -> Bar {
        Bar {
            label,
            value,
            range: None,
        }
    }
}

/// The charts' title font. Plotters sets a size of 20 at about 16 px in
/// its SVG, the size of the book's prose.
pub(crate) const TITLE_FONT: (&str, u32) = ("sans-serif", 20);

/// The font of the charts' labels, legends and values: about 13 px in the
/// SVG, the book's code size. Plotters' default came out under 10 px, and
/// smaller still once the browser fitted the chart to the column.
pub(crate) const LABEL_FONT: (&str, u32) = ("sans-serif", 16);

/// Horizontal bars, one per item, with a title and a unit; a bar with a
/// range gets a line from its least to its greatest round.
pub(crate) fn bars(path: &PathBuf, title: &str, unit: &str, items: &[Bar]) -> Plot {
    let height = 90 + 36 * items.len() as u32;
    let root = SVGBackend::new(path, (720, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = items
        .iter()
        .map(|b| b.range.map_or(b.value, |(_, hi)| hi.max(b.value)))
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.25;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, TITLE_FONT)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(290)
        .build_cartesian_2d(0f64..top, (0..items.len()).into_segmented())?;
    chart
        .configure_mesh()
        .label_style(LABEL_FONT)
        .axis_desc_style(LABEL_FONT)
        .disable_y_mesh()
        .x_desc(unit)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => items.get(*i).map(|b| b.label.clone()).unwrap_or_default(),
            _ => String::new(),
        })
        .draw()?;
    chart.draw_series(items.iter().enumerate().map(|(i, b)| {
        let colour = COLOURS[i % COLOURS.len()];
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(i)),
                (b.value, SegmentValue::Exact(i + 1)),
            ],
            colour.mix(0.8).filled(),
        );
        bar.set_margin(6, 6, 0, 0);
        bar
    }))?;
    chart.draw_series(items.iter().enumerate().filter_map(|(i, b)| {
        b.range.map(|(lo, hi)| {
            PathElement::new(
                vec![
                    (lo, SegmentValue::CenterOf(i)),
                    (hi, SegmentValue::CenterOf(i)),
                ],
                BLACK.stroke_width(2),
            )
        })
    }))?;
    chart.draw_series(items.iter().enumerate().map(|(i, b)| {
        let at = b.range.map_or(b.value, |(_, hi)| hi.max(b.value));
        Text::new(
            format!(" {:.1}", b.value),
            (at, SegmentValue::CenterOf(i)),
            LABEL_FONT,
        )
    }))?;
    root.present()?;
    Ok(())
}

/// How late one task at a time fires at 1 ms, p50, with the floor.
pub(crate) fn lateness(run: &Run, path: &PathBuf) -> Plot {
    let who = [
        "park_timeout",
        "park_timeout, slack 1 ns",
        TIMER,
        "Timer (stage 5), slack 1 ns",
        POOL,
        PEER,
        "futures-timer",
        "crossbeam after",
        "HierarchicalWheel, 1 ms (stage 7)",
    ];
    let items: Vec<Bar> = who
        .iter()
        .filter_map(|w| {
            run.row("fire_latency", "one at a time 1ms", w, "p50")
                .map(|v| Bar::plain((*w).to_owned(), v))
        })
        .collect();
    bars(
        path,
        "How late a task due in 1 ms runs (p50)",
        "microseconds late",
        &items,
    )
}

pub(crate) fn herd(run: &Run, path: &PathBuf) -> Plot {
    let who = [
        "ours: leader and successor",
        "the JDK's leader-follower",
        "herd (T10's bug)",
        "scheduled-thread-pool",
    ];
    let items: Vec<Bar> = [4, 8]
        .iter()
        .flat_map(|w| {
            who.iter().filter_map(move |s| {
                run.row("herd", &format!("{w} workers"), s, "wakeups/task")
                    .map(|v| Bar::plain(format!("{s}, {w} workers"), v))
            })
        })
        .collect();
    bars(
        path,
        "Worker wake-ups per task fired (a task every 1 ms)",
        "wake-ups per task",
        &items,
    )
}

/// Each pool's throughput, in millions of tasks a second (a thousand over
/// its ns per task), per input, with the range of its rounds.
pub(crate) fn throughput(run: &Run, path: &PathBuf) -> Plot {
    let mut items = Vec::new();
    for input in SCHEDULE_INPUTS {
        for (subject, label) in [
            (THROUGHPUT_OURS, "ours (stage 6)"),
            (THROUGHPUT_CHANNEL, "crossbeam-channel pool"),
            (THROUGHPUT_CRATE, "threadpool crate"),
        ] {
            let g = format!("{input}, 2 workers");
            if let Some(s) = Spread::of(run, "pool_throughput", &g, subject) {
                items.push(Bar {
                    label: format!("{label}, {input}"),
                    value: 1000.0 / s.median,
                    range: Some((1000.0 / s.max, 1000.0 / s.min)),
                });
            }
        }
    }
    bars(
        path,
        "Pool throughput, 2 workers (median, range of the rounds)",
        "million tasks a second",
        &items,
    )
}
