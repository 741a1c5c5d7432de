//! A plot's data ([`Chart`]: named series of points, axis labels, linear or log axes) and its
//! drawing as inline SVG with plotters' SVG backend. Text is written as SVG `<text>` the
//! browser sets in its own fonts: plotters without its `ttf`/`ab_glyph` features only
//! estimates label widths, so no font library and no bundled font are needed.
//!
//! Every chart also gets its text alternative, a `<title>` naming it and a table of its
//! numbers (see the html module's `figure`).

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// Size of every plot, in SVG pixels (scaled down by CSS on narrow screens).
pub const SIZE: (u32, u32) = (560, 340);

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mark {
    Line,
    /// A line with a dot at each point.
    LineDots,
    /// Dots only.
    Dots,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub mark: Mark,
}

/// One plot: what it shows (the numbers the tests compare with the JSON) and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The HTML id of the figure (`data-plot` too).
    pub id: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Log axes (bench scale's cost against KB size); linear otherwise.
    pub log: bool,
    /// Fixed [0, 1] × [0, 1] axes with the diagonal drawn (ROC, calibration).
    pub unit_square: bool,
    pub series: Vec<Series>,
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// The colour of the `i`-th series.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

impl Chart {
    /// The x and y ranges of the drawing: the unit square, or the data's span padded by 5 %
    /// (log axes: positive values only, a factor around them).
    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        if self.unit_square {
            return ((0.0, 1.0), (0.0, 1.0));
        }
        let points = self.series.iter().flat_map(|s| s.points.iter());
        let usable: Vec<(f64, f64)> = points
            .copied()
            .filter(|&(x, y)| x.is_finite() && y.is_finite() && (!self.log || (x > 0.0 && y > 0.0)))
            .collect();
        let span = |v: Vec<f64>| {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if !lo.is_finite() {
                return if self.log { (0.1, 10.0) } else { (0.0, 1.0) };
            }
            if self.log {
                // Whole decades, so the axis has labelled ticks however narrow the data.
                let lo = 10f64.powf(lo.log10().floor());
                let hi = 10f64.powf(hi.log10().ceil());
                (lo, if hi > lo { hi } else { lo * 10.0 })
            } else {
                let pad = ((hi - lo) * 0.05).max(if hi == lo { 0.5 } else { 0.0 });
                (lo - pad, hi + pad)
            }
        };
        (
            span(usable.iter().map(|p| p.0).collect()),
            span(usable.iter().map(|p| p.1).collect()),
        )
    }

    /// The chart as one `<svg>` element.
    pub fn svg(&self) -> anyhow::Result<String> {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
            root.fill(&WHITE)
                .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
            let ((x0, x1), (y0, y1)) = self.ranges();
            if self.log {
                self.draw(&root, (x0..x1).log_scale(), (y0..y1).log_scale())
            } else {
                self.draw(&root, x0..x1, y0..y1)
            }
            .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
            root.present()
                .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
        }
        Ok(out)
    }

    fn draw<X, Y>(
        &self,
        root: &DrawingArea<SVGBackend<'_>, Shift>,
        x: X,
        y: Y,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>>
    where
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        if self.unit_square {
            chart.draw_series(LineSeries::new(
                [(0.0, 0.0), (1.0, 1.0)],
                ShapeStyle::from(&RGBColor(160, 160, 160)).stroke_width(1),
            ))?;
        }
        for (i, s) in self.series.iter().enumerate() {
            let c = colour(i);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|&(x, y)| x.is_finite() && y.is_finite())
                .collect();
            if s.mark != Mark::Dots {
                chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
                    .label(&s.name)
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2))
                    });
            }
            if s.mark != Mark::Line {
                let drawn =
                    chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
                if s.mark == Mark::Dots {
                    drawn
                        .label(&s.name)
                        .legend(move |(x, y)| Circle::new((x + 8, y), 3, c.filled()));
                }
            }
        }
        if self.series.len() > 1 || self.series.iter().any(|s| !s.name.is_empty()) {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(200, 200, 200))
                .position(SeriesLabelPosition::LowerRight)
                .draw()?;
        }
        Ok(())
    }
}

/// A heat map: rows × columns of counts (the multi-class confusion matrix).
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    pub id: String,
    pub title: String,
    pub row_label: String,
    pub column_label: String,
    pub labels: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<u64>>,
}

impl HeatMap {
    /// The heat map as one `<svg>` element: a cell's blue deepens with its count, the count
    /// written in it.
    pub fn svg(&self) -> anyhow::Result<String> {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
            root.fill(&WHITE)
                .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
            self.draw(&root)
                .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
            root.present()
                .map_err(|e| anyhow!("drawing {}: {e}", self.id))?;
        }
        Ok(out)
    }

    fn draw(
        &self,
        root: &DrawingArea<SVGBackend<'_>, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let n = self.labels.len().max(1);
        let max = self
            .cells
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
            .max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..n as f64, n as f64..0.0)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|_| String::new())
            .x_desc(&self.column_label)
            .y_desc(&self.row_label)
            .draw()?;
        for (r, row) in self.cells.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                let t = v as f64 / max as f64;
                let fill = RGBColor(
                    (247.0 - 200.0 * t) as u8,
                    (251.0 - 150.0 * t) as u8,
                    (255.0 - 80.0 * t) as u8,
                );
                let (x, y) = (c as f64, r as f64);
                chart.draw_series([Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled())])?;
                let ink = if t > 0.5 { WHITE } else { BLACK };
                let style = ("sans-serif", 15).into_font().color(&ink).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                );
                chart.draw_series([Text::new(v.to_string(), (x + 0.5, y + 0.5), style)])?;
            }
        }
        // Class names at the cells' centres, outside the plot area.
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        for (i, label) in self.labels.iter().enumerate() {
            let c = i as f64 + 0.5;
            let (bx, by) = chart.backend_coord(&(c, n as f64));
            let below = ("sans-serif", 13)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(label.clone(), (bx, by + 4), below))?;
            let (lx, ly) = chart.backend_coord(&(0.0, c));
            let left = ("sans-serif", 13)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(label.clone(), (lx - 6, ly), left))?;
        }
        Ok(())
    }
}
