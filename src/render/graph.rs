//! An analysed game's evaluation graph: the first side's winning chance after each action, the
//! area under the line in its colour and above it in the other side's (who was ahead, at a
//! glance), the stages of the game as bands (placement, picking, play), and the turning points
//! as dots coloured by how bad they were, the worst labelled. Sized to stay readable on a phone,
//! where Discord shows an image about half as wide.

use super::scene::{Rgba, side_color};
use super::svg::FONT;
use super::svg_text::{escape, num};
use arbiter_engine::ai::analysis::Judgement;
use arbiter_engine::view::SideStyle;

/// A graph to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalGraph {
    pub title: String,
    /// Each side's name ("White") and colours.
    pub sides: [(String, SideStyle); 2],
    /// The first side's winning chance at each position, 0 to 1.
    pub chances: Vec<f64>,
    /// Where each stage of the game begins (a position) and its name; drawn when there are two.
    pub stages: Vec<(usize, String)>,
    pub marks: Vec<GraphMark>,
    /// Labels under the line at some positions (move numbers).
    pub ticks: Vec<(usize, String)>,
    /// A line under the graph (how it was made).
    pub footer: String,
}

/// A judged action: the position it led to, its judgement, and its label if it is one of the
/// few worth naming on the image. Labels are placed in the order of the marks: the most
/// important first.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphMark {
    pub at: usize,
    pub judgement: Judgement,
    pub label: Option<String>,
}

const WIDTH: f32 = 900.0;
const HEIGHT: f32 = 500.0;
/// The plot's box: left, top, right, bottom.
const PLOT: (f32, f32, f32, f32) = (40.0, 70.0, 880.0, 420.0);
const BACKGROUND: &str = "#262421";
const TEXT: &str = "#eeeeee";
const MUTED: &str = "#a8a49c";
const TITLE_SIZE: f32 = 26.0;
const LABEL_SIZE: f32 = 20.0;
const SMALL_SIZE: f32 = 17.0;
const LABEL_HEIGHT: f32 = 30.0;
/// How wide a character of a label is on average (DejaVu Sans Bold at [`LABEL_SIZE`]).
const LABEL_CHAR: f32 = 12.6;

/// The colour of a judgement's dot (Lichess's: blue, orange, red).
pub fn judgement_color(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "#56b4e9",
        Judgement::Mistake => "#e69f00",
        Judgement::Blunder => "#df5353",
    }
}

/// A side's colour as solid paint.
fn solid(style: SideStyle) -> String {
    let Rgba { r, g, b, .. } = side_color(style);
    match style {
        // White's area stays light and Black's dark, but neither pure, so the line shows on both.
        SideStyle::White => "#e8e6e1".to_string(),
        SideStyle::Black => "#3a3835".to_string(),
        _ => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

impl EvalGraph {
    /// The x of a position.
    pub fn x(&self, position: usize) -> f32 {
        let (left, _, right, _) = PLOT;
        let last = self.chances.len().saturating_sub(1).max(1);
        left + (right - left) * position as f32 / last as f32
    }

    /// The y of a winning chance (the first side's: high when it is ahead).
    pub fn y(chance: f64) -> f32 {
        let (_, top, _, bottom) = PLOT;
        bottom - (bottom - top) * chance.clamp(0.0, 1.0) as f32
    }

    pub fn to_svg(&self) -> String {
        let (left, top, right, bottom) = PLOT;
        // Its words for a page's screen reader (a PNG's description is given beside it).
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}" role="img"><title>{}</title>"#,
            escape(&self.describe())
        );
        svg += &format!(r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>"#);
        svg += &text(left, 42.0, TITLE_SIZE, TEXT, "start", true, &self.title);
        // Above the line: the second side's colour; under it, the first side's.
        svg += &format!(
            r#"<rect x="{left}" y="{top}" width="{}" height="{}" fill="{}"/>"#,
            right - left,
            bottom - top,
            solid(self.sides[1].1)
        );
        let line: Vec<String> = (0..self.chances.len())
            .map(|i| format!("{},{}", num(self.x(i)), num(EvalGraph::y(self.chances[i]))))
            .collect();
        if !line.is_empty() {
            svg += &format!(
                r#"<polygon points="{left},{bottom} {} {},{bottom}" fill="{}"/>"#,
                line.join(" "),
                num(self.x(self.chances.len() - 1)),
                solid(self.sides[0].1)
            );
        }
        svg += &self.stage_bands();
        // Even chances: a dashed line across.
        let middle = EvalGraph::y(0.5);
        svg += &format!(
            r##"<line x1="{left}" y1="{middle}" x2="{right}" y2="{middle}" stroke="#8a8680" stroke-width="2" stroke-dasharray="8 6"/>"##
        );
        if line.len() > 1 {
            svg += &format!(
                r##"<polyline points="{}" fill="none" stroke="#d59020" stroke-width="3" stroke-linejoin="round"/>"##,
                line.join(" ")
            );
        }
        svg += &self.side_labels();
        svg += &self.ticks_svg();
        svg += &self.marks_svg();
        svg += &self.legend();
        svg += "</svg>";
        svg
    }

    /// Light bands over the stages before play, each named at its top.
    fn stage_bands(&self) -> String {
        if self.stages.len() < 2 {
            return String::new();
        }
        let (_, top, right, bottom) = PLOT;
        let mut svg = String::new();
        for (index, (from, name)) in self.stages.iter().enumerate() {
            let x0 = self.x(*from);
            let x1 = self.stages.get(index + 1).map_or(right, |(to, _)| self.x(*to));
            if index % 2 == 0 {
                svg += &format!(
                    r##"<rect x="{}" y="{top}" width="{}" height="{}" fill="#6a8fbf" fill-opacity="0.22"/>"##,
                    num(x0),
                    num((x1 - x0).max(0.0)),
                    bottom - top
                );
            }
            if index > 0 {
                svg += &format!(
                    r##"<line x1="{0}" y1="{top}" x2="{0}" y2="{bottom}" stroke="#6a8fbf" stroke-width="2"/>"##,
                    num(x0)
                );
            }
            if x1 - x0 >= name.chars().count() as f32 * 10.0 + 8.0 {
                svg += &text(x0 + 6.0, top + 20.0, SMALL_SIZE, "#9dc1ef", "start", true, name);
            }
        }
        svg
    }

    /// Each side's name where its advantage lies: the first at the top, the second at the bottom.
    fn side_labels(&self) -> String {
        let (left, top, _, bottom) = PLOT;
        let label = |y: f32, (name, _): &(String, SideStyle)| {
            format!(
                r##"<rect x="{}" y="{}" width="{}" height="26" rx="4" fill="#262421" fill-opacity="0.75"/>{}"##,
                left + 4.0,
                y - 19.0,
                num(name.chars().count() as f32 * LABEL_CHAR + 12.0),
                text(left + 10.0, y, LABEL_SIZE, TEXT, "start", true, name)
            )
        };
        label(top + 48.0, &self.sides[0]) + &label(bottom - 12.0, &self.sides[1])
    }

    fn ticks_svg(&self) -> String {
        let (_, _, _, bottom) = PLOT;
        self.ticks
            .iter()
            .map(|(at, label)| {
                let x = self.x(*at);
                format!(
                    r##"<line x1="{0}" y1="{bottom}" x2="{0}" y2="{1}" stroke="{MUTED}" stroke-width="2"/>{2}"##,
                    num(x),
                    bottom + 6.0,
                    text(x, bottom + 26.0, SMALL_SIZE, MUTED, "middle", false, label)
                )
            })
            .collect()
    }

    /// The dots, then the labels over them, each boxed above or below its dot, or beside that,
    /// wherever it overlaps no label placed before it (the worst first) and stays within the
    /// plot; a label with no such place is left out (its dot stays).
    fn marks_svg(&self) -> String {
        let mut dots = String::new();
        let mut labels = String::new();
        let mut placed: Vec<Box> = Vec::new();
        for mark in &self.marks {
            let Some(chance) = self.chances.get(mark.at) else {
                continue;
            };
            let (x, y) = (self.x(mark.at), EvalGraph::y(*chance));
            let color = judgement_color(mark.judgement);
            dots += &format!(
                r##"<circle cx="{}" cy="{}" r="8" fill="{color}" stroke="#1b1f24" stroke-width="2"/>"##,
                num(x),
                num(y)
            );
            let Some(label) = &mark.label else {
                continue;
            };
            let width = label.chars().count() as f32 * LABEL_CHAR + 14.0;
            let Some(spot) = label_spot((x, y), width, &placed) else {
                continue;
            };
            placed.push(spot);
            labels += &format!(
                r##"<rect x="{}" y="{}" width="{}" height="{LABEL_HEIGHT}" rx="5" fill="#1b1f24" stroke="{color}" stroke-width="2"/>{}"##,
                num(spot.x),
                num(spot.y),
                num(width),
                text(
                    spot.x + width / 2.0,
                    spot.y + 22.0,
                    LABEL_SIZE,
                    TEXT,
                    "middle",
                    true,
                    label
                )
            );
        }
        dots + &labels
    }

    /// The judgements' colours, and the footer.
    fn legend(&self) -> String {
        let y = HEIGHT - 22.0;
        let mut svg = String::new();
        let mut x = PLOT.0;
        for judgement in Judgement::ALL {
            svg += &format!(
                r##"<circle cx="{}" cy="{}" r="8" fill="{}" stroke="#1b1f24" stroke-width="2"/>"##,
                num(x + 8.0),
                num(y - 6.0),
                judgement_color(judgement)
            );
            svg += &text(x + 22.0, y, SMALL_SIZE, TEXT, "start", false, judgement.name());
            x += 22.0 + judgement.name().len() as f32 * 10.5 + 24.0;
        }
        svg += &text(PLOT.2, y, SMALL_SIZE, MUTED, "end", false, &self.footer);
        svg
    }

    /// The graph in words, for whoever cannot see it (an attachment's description).
    pub fn describe(&self) -> String {
        let percent = |chance: f64| format!("{:.0}%", chance * 100.0);
        let first = &self.sides[0].0;
        let (mut lowest, mut highest) = (1.0f64, 0.0f64);
        for chance in &self.chances {
            lowest = lowest.min(*chance);
            highest = highest.max(*chance);
        }
        let end = self.chances.last().copied().unwrap_or(0.5);
        let named: Vec<&str> = self.marks.iter().filter_map(|m| m.label.as_deref()).collect();
        let mut words = format!(
            "{}: {first}'s winning chance over the game, between {} and {}, ending at {}.",
            self.title,
            percent(lowest),
            percent(highest),
            percent(end)
        );
        if !named.is_empty() {
            words += &format!(" Turning points: {}.", named.join(", "));
        }
        words
    }
}

/// A label's box on the image.
#[derive(Clone, Copy)]
struct Box {
    x: f32,
    y: f32,
    width: f32,
}

impl Box {
    fn overlaps(&self, other: &Box) -> bool {
        self.x < other.x + other.width + 4.0
            && other.x < self.x + self.width + 4.0
            && self.y < other.y + LABEL_HEIGHT + 4.0
            && other.y < self.y + LABEL_HEIGHT + 4.0
    }
}

/// Where a label of `width` for the dot at `(x, y)` goes: above the dot, below it, then the same
/// a box's width to either side, the first place within the plot that no `placed` box overlaps.
fn label_spot((x, y): (f32, f32), width: f32, placed: &[Box]) -> Option<Box> {
    let (left, top, right, bottom) = PLOT;
    let above = y - 16.0 - LABEL_HEIGHT;
    let below = y + 16.0;
    let rows = [above, below]
        .into_iter()
        .filter(|row| *row >= top && row + LABEL_HEIGHT <= bottom);
    let rows: Vec<f32> = rows.collect();
    for shift in [0.0, -(width / 2.0 + 12.0), width / 2.0 + 12.0] {
        for &row in &rows {
            let spot = Box {
                x: (x - width / 2.0 + shift).clamp(left, right - width),
                y: row,
                width,
            };
            if !placed.iter().any(|other| other.overlaps(&spot)) {
                return Some(spot);
            }
        }
    }
    None
}

/// A line of text.
fn text(x: f32, y: f32, size: f32, fill: &str, anchor: &str, bold: bool, words: &str) -> String {
    format!(
        r#"<text x="{}" y="{}" font-size="{size}" fill="{fill}" text-anchor="{anchor}"{}>{}</text>"#,
        num(x),
        num(y),
        if bold { r#" font-weight="bold""# } else { "" },
        escape(words)
    )
}
