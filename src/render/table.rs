//! Tables as images (a tournament's standings): a title, a header row and rows shaded in turn,
//! each column as wide as its longest cell, drawn with the bundled font.

use super::svg::FONT;
use super::svg_text::escape;

/// A table to draw. Players are named in `name_column` by the part of their id after the
/// transport, like board images, so a transport can put the names it shows in their place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub name_column: Option<usize>,
    /// A line under the table saying what its abbreviations mean.
    pub legend: String,
}

/// Pixel sizes: a row's height, the font's size, the space around a cell's text.
const ROW: f32 = 30.0;
const FONT_SIZE: f32 = 16.0;
const PADDING: f32 = 12.0;
/// The width of a character on average, for sizing columns (DejaVu Sans at 16 px, digits and
/// letters; generous so text never overflows its cell).
const CHAR_WIDTH: f32 = 9.6;
/// The longest cell drawn, in characters (a name is cut there).
const LONGEST_CELL: usize = 24;

pub const BACKGROUND: &str = "#ffffff";
pub const HEADER: &str = "#2f3e4e";
pub const SHADED_ROW: &str = "#e8edf2";
const TEXT: &str = "#1b1f24";

impl Table {
    /// Cells as drawn: only what a reader can see (names are users'), cut to [`LONGEST_CELL`]
    /// characters.
    fn cell(text: &str) -> String {
        let text = crate::visible_text::one_line(text);
        if text.chars().count() <= LONGEST_CELL {
            text
        } else {
            let mut cut: String = text.chars().take(LONGEST_CELL - 1).collect();
            cut.push('…');
            cut
        }
    }

    fn column_widths(&self) -> Vec<f32> {
        (0..self.header.len())
            .map(|column| {
                let longest = std::iter::once(&self.header)
                    .chain(&self.rows)
                    .filter_map(|row| row.get(column))
                    .map(|text| Table::cell(text).chars().count())
                    .max()
                    .unwrap_or(0);
                longest as f32 * CHAR_WIDTH + 2.0 * PADDING
            })
            .collect()
    }

    /// The table as an SVG document.
    pub fn to_svg(&self) -> String {
        let widths = self.column_widths();
        let table_width: f32 = widths.iter().sum();
        let legend_width = self.legend.chars().count() as f32 * CHAR_WIDTH * 0.8 + 2.0 * PADDING;
        let title_width = self.title.chars().count() as f32 * CHAR_WIDTH * 1.15 + 2.0 * PADDING;
        let width = table_width.max(legend_width).max(title_width).ceil();
        let top = ROW * 1.4;
        let height = (top + ROW * (self.rows.len() as f32 + 1.0) + ROW * 1.2).ceil();
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             font-family=\"{FONT}\" font-size=\"{FONT_SIZE}\">\
             <rect width=\"{width}\" height=\"{height}\" fill=\"{BACKGROUND}\"/>\
             <text x=\"{PADDING}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{TEXT}\">{}</text>",
            top - 12.0,
            FONT_SIZE * 1.15,
            escape(&self.title)
        );
        let rows = std::iter::once(&self.header).chain(&self.rows);
        for (index, row) in rows.enumerate() {
            let y = top + ROW * index as f32;
            let (fill, text_fill, weight) = match index {
                0 => (Some(HEADER), BACKGROUND, "bold"),
                n if n % 2 == 0 => (Some(SHADED_ROW), TEXT, "normal"),
                _ => (None, TEXT, "normal"),
            };
            if let Some(fill) = fill {
                svg.push_str(&format!(
                    "<rect x=\"0\" y=\"{y}\" width=\"{table_width}\" height=\"{ROW}\" fill=\"{fill}\"/>"
                ));
            }
            let mut x = 0.0;
            for (column, text) in row.iter().enumerate() {
                let width = widths.get(column).copied().unwrap_or(0.0);
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" fill=\"{text_fill}\" font-weight=\"{weight}\">{}</text>",
                    x + PADDING,
                    y + ROW * 0.68,
                    escape(&Table::cell(text))
                ));
                x += width;
            }
        }
        svg.push_str(&format!(
            "<text x=\"{PADDING}\" y=\"{}\" font-size=\"{}\" fill=\"{TEXT}\">{}</text></svg>",
            top + ROW * (self.rows.len() as f32 + 1.0) + ROW * 0.8,
            FONT_SIZE * 0.8,
            escape(&self.legend)
        ));
        svg
    }
}
