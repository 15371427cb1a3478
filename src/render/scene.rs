//! What an image shows, as data: boards with pieces and general marks (square tints, markers,
//! badges, labels), a strip per player, text lines and a legend. Games choose marks; the drawing
//! code never needs to know which game it draws. A scene is built from one viewer's view, so an
//! image can only show what that viewer may see.

use super::pieces::{Picture, picture};
use crate::visible_text;
use arbiter_engine::geometry::Square;
use arbiter_engine::piece::Color;
use arbiter_engine::view::{BoardView, MarkKind, SideStyle, Tone};
use arbiter_engine::{Phase, Seat, View, ViewCell, Viewer};

/// An sRGB colour with opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: f32,
}

impl Rgba {
    pub const fn new(r: u8, g: u8, b: u8, a: f32) -> Rgba {
        Rgba { r, g, b, a }
    }
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// Close to white: a tint of it needs an edge to show on a light square.
    pub fn is_whitish(self) -> bool {
        self.r.min(self.g).min(self.b) >= 230
    }

    /// Whether dark writing or a dark edge shows on it better than white (White's marks).
    pub fn is_light(self) -> bool {
        let luminance = 0.299 * f32::from(self.r) + 0.587 * f32::from(self.g) + 0.114 * f32::from(self.b);
        luminance > 160.0
    }
}

/// Colours of the marks games use.
pub mod palette {
    use super::Rgba;
    pub const LAST_MOVE: Rgba = Rgba::new(246, 214, 70, 0.55);
    pub const CHECK: Rgba = Rgba::new(226, 40, 40, 0.75);
    pub const DOT: Rgba = Rgba::new(30, 60, 30, 0.45);
    pub const HIGHLIGHT: Rgba = Rgba::new(60, 150, 230, 0.55);
    pub const NEUTRAL: Rgba = Rgba::new(120, 90, 200, 0.5);
    pub const WHITE_SIDE: Rgba = Rgba::new(255, 255, 255, 0.8);
    pub const BLACK_SIDE: Rgba = Rgba::new(20, 20, 20, 0.7);
    pub const RED_SIDE: Rgba = Rgba::new(214, 48, 49, 0.75);
    pub const BLUE_SIDE: Rgba = Rgba::new(38, 96, 214, 0.75);
    pub const BOMB: Rgba = Rgba::new(200, 30, 30, 1.0);
}

/// How one side's pieces are painted: body, outline, and the inner detail lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceColors {
    pub body: &'static str,
    pub outline: &'static str,
    pub details: &'static str,
}

impl PieceColors {
    pub const WHITE: PieceColors = PieceColors {
        body: "#f2efe6",
        outline: "#1e1e1e",
        details: "#1e1e1e",
    };
    pub const BLACK: PieceColors = PieceColors {
        body: "#2b2b2b",
        outline: "#f2efe6",
        details: "#f2efe6",
    };
    pub const RED: PieceColors = PieceColors {
        body: "#e0493f",
        outline: "#1e1e1e",
        details: "#1e1e1e",
    };
    pub const BLUE: PieceColors = PieceColors {
        body: "#2f6ee0",
        outline: "#1e1e1e",
        details: "#f2efe6",
    };

    /// How pieces of a side painted in `style` look.
    pub fn of(style: SideStyle) -> PieceColors {
        match style {
            SideStyle::White => PieceColors::WHITE,
            SideStyle::Black => PieceColors::BLACK,
            SideStyle::Red => PieceColors::RED,
            SideStyle::Blue => PieceColors::BLUE,
        }
    }
}

/// A mark drawn over a square's piece.
#[derive(Clone, Debug, PartialEq)]
pub enum Marker {
    /// A small disc in the middle (a legal destination).
    Dot(Rgba),
    /// A ring around the square's edge (a capture, a flag, a goal).
    Ring(Rgba),
}

/// A small round badge in a square's top-right corner with a short text (the bomb carrier, a
/// base, a count).
#[derive(Clone, Debug, PartialEq)]
pub struct Badge {
    pub text: String,
    pub color: Rgba,
}

/// What stands on a square.
#[derive(Clone, Debug, PartialEq)]
pub enum Occupant {
    Piece { side: Color, picture: Picture },
    Statue,
}

/// One board of an image.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardScene {
    pub files: u8,
    pub ranks: u8,
    /// Black's side at the bottom.
    pub is_flipped: bool,
    /// The seat playing each colour on this board, indexed by colour.
    pub seats: [Seat; 2],
    /// Rank by rank from a1, like a view's cells.
    pub occupants: Vec<Option<Occupant>>,
    /// Square tints, drawn under the pieces in order.
    pub tints: Vec<(Square, Rgba)>,
    /// Bands around a square's edge, drawn over its tints (the latest statue's square).
    pub frames: Vec<(Square, Rgba)>,
    pub markers: Vec<(Square, Marker)>,
    pub badges: Vec<(Square, Badge)>,
    /// Words written along a square's bottom edge (a domination square's owner, a portal's pair).
    pub labels: Vec<(Square, String)>,
    /// A title above the board, for images with several boards.
    pub caption: Option<String>,
}

/// A square's tints, frames, markers, badges and labels.
type SquareMarks<'a> = (
    Vec<&'a Rgba>,
    Vec<&'a Rgba>,
    Vec<&'a Marker>,
    Vec<&'a Badge>,
    Vec<&'a String>,
);

impl BoardScene {
    pub fn occupant(&self, square: Square) -> Option<&Occupant> {
        self.occupants
            .get(square.rank() as usize * self.files as usize + square.file() as usize)?
            .as_ref()
    }

    /// Everything drawn on one square but its piece, in drawing order.
    fn marks_on(&self, at: Square) -> SquareMarks<'_> {
        fn on<T>(marks: &[(Square, T)], at: Square) -> Vec<&T> {
            marks
                .iter()
                .filter(|(square, _)| *square == at)
                .map(|(_, mark)| mark)
                .collect()
        }
        (
            on(&self.tints, at),
            on(&self.frames, at),
            on(&self.markers, at),
            on(&self.badges, at),
            on(&self.labels, at),
        )
    }
}

impl Scene {
    /// The squares (by board) drawn differently here than in `before`, when nothing else is
    /// (a move's squares and the marks of the move before); `None` when anything off the
    /// squares changed too (a strip, a pool, a line of text).
    pub fn squares_changed_from(&self, before: &Scene) -> Option<Vec<(usize, Square)>> {
        let same_surroundings = self.players == before.players
            && self.shows_players == before.shows_players
            && self.wide == before.wide
            && self.piece_colors == before.piece_colors
            && self.lines == before.lines
            && self.key == before.key
            && self.pool == before.pool
            && self.legend == before.legend
            && self.boards.len() == before.boards.len();
        if !same_surroundings {
            return None;
        }
        let mut changed = Vec::new();
        for (index, (now, was)) in self.boards.iter().zip(&before.boards).enumerate() {
            let same_board = (now.files, now.ranks, now.is_flipped, now.seats, &now.caption)
                == (was.files, was.ranks, was.is_flipped, was.seats, &was.caption);
            if !same_board {
                return None;
            }
            for rank in 0..now.ranks {
                for file in 0..now.files {
                    let at = Square::new(file, rank);
                    if now.occupant(at) != was.occupant(at) || now.marks_on(at) != was.marks_on(at) {
                        changed.push((index, at));
                    }
                }
            }
        }
        Some(changed)
    }
}

/// A player's strip above or below the boards.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStrip {
    /// "alice (White)", or just "White".
    pub name: String,
    /// The colour the player plays on each board, in board order (Assault's players play White on
    /// one board and Black on the other).
    pub side_colors: Vec<Rgba>,
    /// The colour the player's pieces in hand are painted in.
    pub color: Color,
    /// What the player must do now ("to move", "to place", "to choose"), when it is their turn.
    pub turn: Option<String>,
    /// "0:42 · reserve 4:12" when the game has clocks.
    pub clock: Option<String>,
    /// Pieces still to place, drawn small.
    pub hand: Vec<Picture>,
}

/// One legend line: a token and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendEntry {
    pub label: String,
    pub name: String,
}

/// What one kind of mark on the boards means, with a sample of the mark drawn beside the words
/// (so a ring in White's colour and a ring in Black's are told apart by more than the text).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyEntry {
    pub sample: Sample,
    pub meaning: String,
}

/// A mark as the key draws it on a small square.
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    Tint(Rgba),
    /// The square tinted, and framed by a band of the colour between two dark lines, which shows
    /// on light and dark squares alike, around a piece filling the square (a side's latest statue).
    Framed(Rgba),
    Marker(Marker),
    Badge(Badge),
}

/// Everything one image shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub boards: Vec<BoardScene>,
    /// Indexed by seat; the seat at the top of the first board is drawn above.
    pub players: [PlayerStrip; 2],
    /// Whether the players' strips are drawn (not on a piece's diagram).
    pub shows_players: bool,
    /// Laid out for a wide screen: boards side by side, the notes beside them.
    pub wide: bool,
    /// How each colour's pieces are painted.
    pub piece_colors: [PieceColors; 2],
    /// Lines under the boards: a score line, the result.
    pub lines: Vec<String>,
    /// What the marks on the boards mean, each once.
    pub key: Vec<KeyEntry>,
    /// Piece types still to be picked (Pick-the-team), drawn in rows under the boards.
    pub pool: Vec<Picture>,
    pub legend: Vec<LegendEntry>,
}

/// What an image adds to a view: who plays, their clocks, and legal-move dots when asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decor {
    pub player_names: [Option<String>; 2],
    pub clocks: [Option<String>; 2],
    pub dots: Vec<Square>,
    /// Extra lines under the board (a score line).
    pub lines: Vec<String>,
    /// A diagram rather than a game: no players' strips.
    pub without_players: bool,
    /// A replay's frame: the strips never say whose turn it is, so they stay the same from one
    /// frame to the next and a frame stores only the squares a move changed.
    pub without_turns: bool,
    /// A wide screen's image (a stream overlay): a game's boards side by side, and the pool, the
    /// lines, the key and the legend in a column beside them instead of under them, so a tall
    /// game keeps large boards.
    pub wide: bool,
    /// The seat whose side is drawn at the bottom, where it is not the viewer's (a stream
    /// overlay showing a spectator's view from Black's side).
    pub bottom: Option<Seat>,
}

/// The colour that stands for a side painted in `style`.
pub fn side_color(style: SideStyle) -> Rgba {
    match style {
        SideStyle::White => palette::WHITE_SIDE,
        SideStyle::Black => palette::BLACK_SIDE,
        SideStyle::Red => palette::RED_SIDE,
        SideStyle::Blue => palette::BLUE_SIDE,
    }
}

/// The colour of a mark's tone, in a view whose sides are painted `sides`.
fn tone_color(tone: Tone, sides: &[SideStyle; 2]) -> Rgba {
    match tone {
        Tone::Side(color) => side_color(sides[color.index()]),
        Tone::SideLight(color) => {
            let full = side_color(sides[color.index()]);
            // Light enough that the pieces standing on the square stay readable.
            let alpha = if sides[color.index()] == SideStyle::White {
                0.6
            } else {
                0.35
            };
            Rgba { a: alpha, ..full }
        }
        Tone::Danger => palette::BOMB,
        Tone::Highlight => palette::HIGHLIGHT,
        Tone::Neutral => palette::NEUTRAL,
    }
}

impl Scene {
    /// The scene of a game as `view`'s viewer may see it: each board with the viewer's side at
    /// the bottom (White's for spectators and the arbiter).
    pub fn from_view(view: &View, decor: &Decor) -> Scene {
        let mut boards: Vec<BoardScene> = view
            .boards
            .iter()
            .map(|board| board_scene(view, board, decor.bottom))
            .collect();
        if let Some(first) = boards.first_mut() {
            for &square in &decor.dots {
                // A dot would vanish under a piece: a capture gets a ring around it instead.
                let marker = match first.occupant(square) {
                    Some(_) => Marker::Ring(palette::DOT),
                    None => Marker::Dot(palette::DOT),
                };
                first.markers.push((square, marker));
            }
        }
        let players = Seat::BOTH.map(|seat| {
            let side = &view.seat_names[seat.index()];
            PlayerStrip {
                // A name as shown everywhere, cut to what fits the strip; a name of nothing
                // visible is left out, as for a seat nobody has taken.
                name: match decor.player_names[seat.index()].as_deref().and_then(visible_text::name) {
                    Some(player) => format!("{player} ({side})"),
                    None => side.clone(),
                },
                side_colors: view
                    .boards
                    .iter()
                    .map(|board| side_color(view.sides[board.color_of(seat).index()]))
                    .collect(),
                color: view.board().color_of(seat),
                turn: (!decor.without_turns && view.outcome.is_none() && view.to_act.contains(&seat))
                    .then(|| turn_word(view.phase).to_string()),
                clock: decor.clocks[seat.index()].clone(),
                hand: view.hands[seat.index()]
                    .iter()
                    .map(|&piece| picture(view.piece(piece)))
                    .collect(),
            }
        });
        let mut lines = decor.lines.clone();
        let mut status: Vec<String> = Vec::new();
        if let Some(scores) = view.scores {
            let parts: Vec<String> = Seat::BOTH
                .iter()
                .map(|seat| format!("{} {}", view.seat_names[seat.index()], scores[seat.index()]))
                .collect();
            status.push(format!("Score: {}", parts.join(" · ")));
        }
        if let Some((played, of)) = view.turns {
            status.push(format!("turn {played}/{of}"));
        }
        if !status.is_empty() {
            lines.push(status.join(" · "));
        }
        if let Some(outcome) = &view.outcome {
            let verdict = match outcome.winner {
                _ if outcome.reason == arbiter_engine::EndReason::Aborted => "Aborted".to_string(),
                Some(seat) => format!(
                    "{} wins by {}",
                    view.seat_names[seat.index()],
                    outcome.reason.describe()
                ),
                None => format!("Drawn by {}", outcome.reason.describe()),
            };
            lines.push(format!("{} · {verdict}", outcome.result_text()));
        }
        let pool: Vec<Picture> = view.pool.iter().map(|&piece| picture(view.piece(piece))).collect();
        let legend = legend(&boards, &players, &pool);
        Scene {
            boards,
            players,
            shows_players: !decor.without_players,
            wide: decor.wide,
            piece_colors: view.sides.map(PieceColors::of),
            lines,
            key: key(view),
            pool,
            legend,
        }
    }
}

/// One board of a view, from its viewer's side (or `bottom`'s), with its marks.
fn board_scene(view: &View, board: &BoardView, bottom: Option<Seat>) -> BoardScene {
    let is_flipped = match bottom {
        Some(seat) => board.color_of(seat) == Color::Black,
        None => matches!(view.viewer, Viewer::Seat(seat) if board.color_of(seat) == Color::Black),
    };
    let mut scene = BoardScene {
        files: board.files,
        ranks: board.ranks,
        is_flipped,
        seats: board.seats,
        occupants: board.cells.iter().map(|cell| occupant(view, cell)).collect(),
        tints: Vec::new(),
        frames: Vec::new(),
        markers: Vec::new(),
        badges: Vec::new(),
        labels: Vec::new(),
        caption: board.label.clone(),
    };
    if let Some((from, to)) = board.last_move {
        scene.tints.push((from, palette::LAST_MOVE));
        // A placement or a detonation happens on one square: tinted once, like a move's ends.
        if to != from {
            scene.tints.push((to, palette::LAST_MOVE));
        }
    }
    for mark in &board.marks {
        match sample(&mark.kind, &view.sides) {
            Some(Sample::Tint(color)) => scene.tints.push((mark.square, color)),
            Some(Sample::Framed(color)) => {
                scene.tints.push((mark.square, color));
                scene.frames.push((mark.square, color));
            }
            Some(Sample::Marker(marker)) => scene.markers.push((mark.square, marker)),
            Some(Sample::Badge(badge)) => scene.badges.push((mark.square, badge)),
            None => {
                if let MarkKind::Label { text, .. } = &mark.kind {
                    scene.labels.push((mark.square, text.clone()));
                }
            }
        }
    }
    if let Some(square) = board.check {
        scene.tints.push((square, palette::CHECK));
    }
    scene
}

/// How a mark is drawn, in a view whose sides are painted `sides` (a label is words, not a sample).
fn sample(kind: &MarkKind, sides: &[SideStyle; 2]) -> Option<Sample> {
    Some(match kind {
        // A side's full colour on a square (a statue's placer) marks what the eye must find at
        // once: a tint alone hardly shows around a statue, nor White's on a light square, nor
        // Red's or Blue's on a dark one.
        MarkKind::Tint(tone @ Tone::Side(_)) => Sample::Framed(tone_color(*tone, sides)),
        MarkKind::Tint(tone) => Sample::Tint(tone_color(*tone, sides)),
        MarkKind::Ring(tone) => Sample::Marker(Marker::Ring(tone_color(*tone, sides))),
        MarkKind::Dot(tone) => Sample::Marker(Marker::Dot(tone_color(*tone, sides))),
        MarkKind::Badge { text, tone } => Sample::Badge(Badge {
            text: text.clone(),
            color: tone_color(*tone, sides),
        }),
        MarkKind::Label { .. } => return None,
    })
}

/// What the marks of a view mean: each meaning once, with the first mark that has it.
fn key(view: &View) -> Vec<KeyEntry> {
    let mut key: Vec<KeyEntry> = Vec::new();
    for mark in view.boards.iter().flat_map(|b| &b.marks) {
        if mark.meaning.is_empty() || key.iter().any(|entry| entry.meaning == mark.meaning) {
            continue;
        }
        if let Some(sample) = sample(&mark.kind, &view.sides) {
            key.push(KeyEntry {
                sample,
                meaning: mark.meaning.clone(),
            });
        }
    }
    key
}

fn turn_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup => "to place",
        Phase::SealedChoice => "to choose",
        Phase::Play | Phase::Finished => "to move",
    }
}

fn occupant(view: &View, cell: &ViewCell) -> Option<Occupant> {
    match *cell {
        ViewCell::Empty => None,
        ViewCell::Statue => Some(Occupant::Statue),
        ViewCell::Piece { color, piece } => Some(Occupant::Piece {
            side: color,
            picture: picture(view.piece(piece)),
        }),
    }
}

/// The tokens on the boards, in hand and in the pool, each once, in label order.
fn legend(boards: &[BoardScene], players: &[PlayerStrip; 2], pool: &[Picture]) -> Vec<LegendEntry> {
    let on_boards = boards
        .iter()
        .flat_map(|b| b.occupants.iter().flatten())
        .filter_map(|o| match o {
            Occupant::Piece { picture, .. } => Some(picture),
            Occupant::Statue => None,
        });
    let in_hand = players.iter().flat_map(|p| p.hand.iter());
    let mut entries: Vec<LegendEntry> = on_boards
        .chain(in_hand)
        .chain(pool)
        .filter_map(|picture| match picture {
            Picture::Token { label, name, .. } => Some(LegendEntry {
                label: label.clone(),
                name: name.clone(),
            }),
            Picture::Art(_) => None,
        })
        .collect();
    entries.sort_by(|a, b| a.label.cmp(&b.label));
    entries.dedup();
    entries
}

/// The squares the piece on `from` can reach with `actions` (a seat's legal actions), for
/// legal-move dots.
pub fn move_dots(actions: &[arbiter_engine::Action], from: Square) -> Vec<Square> {
    let mut dots: Vec<Square> = actions
        .iter()
        .filter_map(|action| match action {
            arbiter_engine::Action::Move { from: f, to, .. } if *f == from => Some(*to),
            arbiter_engine::Action::MoveAndStatue { from: f, to, .. } if *f == from => Some(*to),
            _ => None,
        })
        .collect();
    dots.sort();
    dots.dedup();
    dots
}

/// A board image to draw: one viewer's view and what the image adds to it. Effects carry these,
/// and each transport draws them when it shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardImage {
    pub view: View,
    pub decor: Decor,
}

impl BoardImage {
    pub fn scene(&self) -> Scene {
        Scene::from_view(&self.view, &self.decor)
    }
}
