//! The report's line plots, written as SVG here: the SPRT's log-likelihood ratio, the
//! score's course and the time per move. No plotting library: a frame, nice ticks,
//! the series as paths, an optional band and horizontal rules.

use std::fmt::Write as _;

use super::esc;

/// A line of a plot.
pub(super) struct Series {
    pub(super) label: String,
    /// CSS class (its colour).
    pub(super) class: &'static str,
    pub(super) points: Vec<(f64, f64)>,
}

/// A horizontal line across a plot.
pub(super) struct Rule {
    pub(super) y: f64,
    pub(super) label: String,
    pub(super) class: &'static str,
}

/// A line plot.
pub(super) struct Plot {
    pub(super) id: &'static str,
    pub(super) title: String,
    pub(super) x_label: String,
    pub(super) y_label: String,
    pub(super) series: Vec<Series>,
    /// A shaded band (x, low, high) under the first series.
    pub(super) band: Option<Vec<(f64, f64, f64)>>,
    pub(super) rules: Vec<Rule>,
    /// The lowest value the y axis shows (times are not negative).
    pub(super) y_floor: Option<f64>,
}

/// A step of 1, 2 or 5 times a power of ten giving about `target` intervals over `span`.
pub(super) fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let norm = raw / magnitude;
    let nice = if norm < 1.5 {
        1.0
    } else if norm < 3.0 {
        2.0
    } else if norm < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// The multiples of `step` from `lo` to `hi` (a few hundred at most, so that crafted
/// results whose values dwarf the step cannot make the loop endless).
pub(super) fn ticks(lo: f64, hi: f64, step: f64) -> impl Iterator<Item = f64> {
    let first = (lo / step).ceil();
    let last = (hi / step + 1e-6).floor();
    let count = if (last - first).is_finite() { (last - first).clamp(-1.0, 400.0) as i64 } else { -1 };
    (0..=count).map(move |i| (first + i as f64) * step)
}

/// A tick's label with as many decimals as the step needs.
pub(super) fn tick_text(v: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let v = if v.abs() < step * 1e-9 { 0.0 } else { v };
    format!("{v:.decimals$}")
}

/// The range of values, widened when it is a single value.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return None;
    }
    if hi - lo < 1e-9 {
        let pad = if lo.abs() > 1.0 { lo.abs() * 0.1 } else { 1.0 };
        return Some((lo - pad, hi + pad));
    }
    Some((lo, hi))
}

impl Plot {
    const W: f64 = 560.0;
    const H: f64 = 250.0;
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = 14.0;
    const TOP: f64 = 34.0;
    const BOTTOM: f64 = 40.0;

    pub(super) fn render(&self) -> String {
        let all_points = self.series.iter().flat_map(|s| s.points.iter());
        let Some((x0, x1)) = range(all_points.clone().map(|p| p.0)) else {
            return format!("<p class=\"note\" id=\"{}\">{}: no data yet.</p>\n", self.id, esc(&self.title));
        };
        let ys = all_points
            .map(|p| p.1)
            .chain(self.rules.iter().filter(|r| !r.label.is_empty()).map(|r| r.y))
            .chain(self.band.iter().flatten().flat_map(|&(_, lo, hi)| [lo, hi]));
        let Some((y0, y1)) = range(ys) else { return String::new() };
        let (y0, y1) = match self.y_floor {
            Some(floor) if y0 < floor => (floor, y1.max(floor + 1.0)),
            _ => (y0, y1),
        };
        let ystep = nice_step(y1 - y0, 5.0);
        let (y0, y1) = ((y0 / ystep).floor() * ystep, (y1 / ystep).ceil() * ystep);
        let xstep = nice_step(x1 - x0, 6.0).max(if x1 - x0 >= 1.0 { 1.0 } else { 0.0 });
        let (pw, ph) = (Self::W - Self::LEFT - Self::RIGHT, Self::H - Self::TOP - Self::BOTTOM);
        let sx = |x: f64| Self::LEFT + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| Self::TOP + (y1 - y.clamp(y0, y1)) / (y1 - y0) * ph;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg class=\"plot\" id=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">",
            self.id,
            Self::W,
            Self::H,
            esc(&self.title)
        );
        let _ = writeln!(s, "<text class=\"title\" x=\"{}\" y=\"14\">{}</text>", Self::LEFT, esc(&self.title));
        // Grid and ticks.
        for y in ticks(y0, y1, ystep) {
            let py = sy(y);
            let _ = writeln!(
                s,
                "<line class=\"grid\" x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/><text class=\"tick\" \
                 x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                Self::LEFT,
                Self::LEFT + pw,
                Self::LEFT - 4.0,
                py + 4.0,
                tick_text(y, ystep)
            );
        }
        for x in ticks(x0, x1, xstep) {
            let px = sx(x);
            let _ = writeln!(
                s,
                "<line class=\"grid\" x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\"/><text class=\"tick\" \
                 x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                Self::TOP,
                Self::TOP + ph,
                Self::TOP + ph + 14.0,
                tick_text(x, xstep)
            );
        }
        let _ = writeln!(
            s,
            "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{pw}\" height=\"{ph}\"/>",
            Self::LEFT,
            Self::TOP
        );
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            Self::LEFT + pw / 2.0,
            Self::H - 6.0,
            esc(&self.x_label)
        );
        let _ = writeln!(
            s,
            "<text class=\"axis\" transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            Self::TOP + ph / 2.0,
            esc(&self.y_label)
        );
        if let Some(band) = &self.band
            && !band.is_empty()
        {
            let mut d = String::new();
            for (i, &(x, _, hi)) in band.iter().enumerate() {
                let _ = write!(d, "{}{:.1},{:.1} ", if i == 0 { "M" } else { "L" }, sx(x), sy(hi));
            }
            for &(x, lo, _) in band.iter().rev() {
                let _ = write!(d, "L{:.1},{:.1} ", sx(x), sy(lo));
            }
            let _ = writeln!(s, "<path class=\"band\" d=\"{}Z\"/>", d);
        }
        for r in &self.rules {
            if r.y < y0 || r.y > y1 {
                continue;
            }
            let py = sy(r.y);
            let _ = writeln!(
                s,
                "<line class=\"rule {}\" x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/>",
                r.class,
                Self::LEFT,
                Self::LEFT + pw
            );
            if !r.label.is_empty() {
                let _ = writeln!(
                    s,
                    "<text class=\"rule-label {}\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                    r.class,
                    Self::LEFT + pw - 4.0,
                    py - 4.0,
                    esc(&r.label)
                );
            }
        }
        let mut legend_x = Self::LEFT;
        for series in &self.series {
            let mut d = String::new();
            for (i, &(x, y)) in series.points.iter().enumerate() {
                let _ = write!(d, "{}{:.1},{:.1}", if i == 0 { "M" } else { " L" }, sx(x), sy(y));
            }
            let _ = writeln!(s, "<path class=\"series {}\" d=\"{d}\"/>", series.class);
            if let [(x, y)] = series.points[..] {
                let _ = writeln!(
                    s,
                    "<circle class=\"dot {}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"/>",
                    series.class,
                    sx(x),
                    sy(y)
                );
            }
            let _ = writeln!(
                s,
                "<line class=\"series {}\" x1=\"{legend_x:.1}\" y1=\"26\" x2=\"{:.1}\" y2=\"26\"/>\
                 <text class=\"legend\" x=\"{:.1}\" y=\"30\">{}</text>",
                series.class,
                legend_x + 18.0,
                legend_x + 22.0,
                esc(&series.label)
            );
            legend_x += 30.0 + 6.5 * series.label.chars().count() as f64;
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_scale_into_their_frame() {
        assert_eq!(nice_step(10.0, 5.0), 2.0);
        assert_eq!(nice_step(0.9, 5.0), 0.2);
        assert_eq!(tick_text(0.30000000000000004, 0.1), "0.3");
        let plot = Plot {
            id: "p",
            title: "t <&>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series { label: "s".into(), class: "s-a", points: vec![(1.0, 2.0), (2.0, 4.0), (3.0, -1.0)] }],
            band: None,
            rules: vec![Rule { y: 3.0, label: "r".into(), class: "r-h1" }],
            y_floor: None,
        };
        let svg = plot.render();
        assert!(svg.contains("t &lt;&amp;&gt;") && svg.contains("<path class=\"series s-a\" d=\"M"), "{svg}");
        // Every coordinate of the line is inside the plot's frame.
        let d = svg.split("d=\"M").nth(1).expect("a path").split('"').next().expect("its end");
        for xy in d.split(" L") {
            let (x, y) = xy.split_once(',').expect("x,y");
            let (x, y): (f64, f64) = (x.parse().expect("x"), y.parse().expect("y"));
            assert!((Plot::LEFT..=Plot::W - Plot::RIGHT).contains(&x), "{x}");
            assert!((Plot::TOP..=Plot::H - Plot::BOTTOM).contains(&y), "{y}");
        }
        let empty = Plot { series: vec![], ..plot };
        assert!(empty.render().contains("no data yet"));
    }

    #[test]
    fn ticks_end_whatever_the_values() {
        assert_eq!(ticks(0.0, 10.0, 5.0).collect::<Vec<_>>(), [0.0, 5.0, 10.0]);
        assert_eq!(ticks(1.0, 4.0, 5.0).count(), 0);
        // Values too large for their step to move them, or not numbers at all.
        assert!(ticks(1e16, 1e16 + 2.0, 1.0).count() <= 401);
        assert_eq!(ticks(f64::NAN, 1.0, 1.0).count(), 0);
        assert!(ticks(0.0, f64::INFINITY, 1.0).count() <= 401);
    }
}
