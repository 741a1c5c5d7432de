//! A progress line on stderr for runs longer than a second (off with `--quiet` and when
//! stderr is not a terminal, so logs and pipes stay clean).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::learn::Progress;

/// `--quiet` of the running command: no progress bars, no notes.
static QUIET: AtomicBool = AtomicBool::new(false);

pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether the running command was given `--quiet`.
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

pub struct SearchProgress {
    label: String,
    enabled: bool,
    bar: Mutex<Option<ProgressBar>>,
    /// `(concepts tested, best quality)` at each change of the best quality: the search's
    /// progress against its tests (not wall time, so a `--max-tests` run repeats it), for
    /// `stats.progress` and the report's plot. Recorded with or without a display.
    series: Mutex<Vec<(u64, f64)>>,
}

impl SearchProgress {
    pub fn new(label: impl Into<String>, quiet: bool) -> Self {
        SearchProgress {
            label: label.into(),
            enabled: !quiet && !is_quiet() && std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
            series: Mutex::new(Vec::new()),
        }
    }

    pub fn update(&self, p: &Progress) {
        self.record(p);
        if !self.enabled || p.elapsed < Duration::from_secs(1) {
            return;
        }
        let Ok(mut bar) = self.bar.lock() else {
            return;
        };
        let bar = bar.get_or_insert_with(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let quality = p
            .best_quality
            .map(|q| format!(", best quality {q:.4}"))
            .unwrap_or_default();
        bar.set_message(format!(
            "{}: {} concepts tested{quality}",
            self.label, p.concepts_tested
        ));
    }

    fn record(&self, p: &Progress) {
        let (Some(q), Ok(mut series)) = (p.best_quality, self.series.lock()) else {
            return;
        };
        if series.last().is_none_or(|&(_, best)| best != q) {
            series.push((p.concepts_tested, q));
        }
    }

    /// The recorded progress as JSON, `[[concepts_tested, best_quality], …]`; `None` when
    /// the learner reported no quality (TBC's score is not one).
    pub fn series_json(&self) -> Option<serde_json::Value> {
        let series = self.series.lock().ok()?;
        (!series.is_empty()).then(|| serde_json::json!(*series))
    }

    pub fn finish(&self) {
        if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
            bar.finish_and_clear();
        }
    }
}
