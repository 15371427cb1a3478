//! `AnyGame::play` says what an action changed exactly as comparing views before and after it
//! does (the way the arena found out before `play`): over random games of every hosted game, at
//! every action, `play`'s report equals the view-diffing reference below, which mirrors
//! src/arena/acting.rs line for line. The parts of a view a game gives on their own (record,
//! notes, prompt, notice) are checked against its views for every viewer at every step too.
//!
//! `what_play_costs_against_diffing_views` (ignored; run it in release) times both.

use arbiter_engine::lists::ListKind;
use arbiter_engine::variants::own_pieces::OwnPiecesGame;
use arbiter_engine::{Action, ActionError, AnyGame, Applied, Game, Readers, Seat, VariantId, Viewer};
use std::time::{Duration, Instant};

/// Random games per hosted game, and the actions each may last.
const GAMES: u64 = 10;
const MAX_STEPS: usize = 200;

/// A small seeded generator (SplitMix64): the same games on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What an action changed, found as the arena found it before `play`: by comparing views before
/// and after it (src/arena/acting.rs: `apply_action`, `prompted`, `news`).
fn by_views(game: &mut AnyGame, seat: Seat, action: &Action) -> Result<Applied, ActionError> {
    let public_before = game.view(Viewer::Spectator).record;
    let prompted_before: Vec<Seat> = prompted(game);
    let notices_before = Seat::BOTH.map(|s| game.view(Viewer::Seat(s)).notice);
    game.apply(seat, action)?;
    let spectator = game.view(Viewer::Spectator);
    let public_after = spectator.record;
    let mut public = Vec::new();
    let mut revealed = Vec::new();
    for (index, entry) in public_after.iter().enumerate() {
        match public_before.get(index) {
            Some(old) if old == entry => {}
            Some(_) => revealed.push(entry.clone()),
            None => public.push(entry.clone()),
        }
    }
    let own = game.view(Viewer::Seat(seat));
    let is_hidden =
        own.record.len() > public_before.len() && public_after.get(public_before.len()).is_some_and(|e| e.is_hidden);
    let hidden = is_hidden.then(|| {
        let opponent_reads = game
            .view(Viewer::Seat(seat.other()))
            .record
            .get(public_before.len())
            .is_some_and(|entry| !entry.is_hidden);
        if opponent_reads {
            Readers::Opponent
        } else {
            Readers::Nobody
        }
    });
    let own_notes = own
        .notes
        .iter()
        .filter(|note| !spectator.notes.contains(note))
        .cloned()
        .collect();
    let prompted = prompted(game)
        .into_iter()
        .filter(|s| !prompted_before.contains(s))
        .collect();
    let mut notices = Vec::new();
    for other in Seat::BOTH.into_iter().filter(|s| *s != seat) {
        let notice = game.view(Viewer::Seat(other)).notice;
        if let Some(text) = notice.filter(|text| notices_before[other.index()].as_ref() != Some(text)) {
            notices.push((other, text));
        }
    }
    Ok(Applied {
        public,
        revealed,
        hidden,
        prompted,
        notices,
        own_notes,
    })
}

/// The seats that have a private prompt now, by their views.
fn prompted(game: &AnyGame) -> Vec<Seat> {
    game.to_act()
        .into_iter()
        .filter(|&seat| game.view(Viewer::Seat(seat)).prompt.is_some())
        .collect()
}

const VIEWERS: [Viewer; 4] = [
    Viewer::Spectator,
    Viewer::Arbiter,
    Viewer::Seat(Seat::First),
    Viewer::Seat(Seat::Second),
];

/// The parts of a view a game gives on their own are those of its views.
fn assert_parts_agree(id: VariantId, step: usize, game: &AnyGame) {
    for viewer in VIEWERS {
        let view = game.view(viewer);
        let at = format!("{id} step {step}, {viewer:?}");
        assert_eq!(game.record(viewer), view.record, "{at}: record");
        assert_eq!(game.notes(viewer), view.notes, "{at}: notes");
        if let Viewer::Seat(seat) = viewer {
            assert_eq!(game.has_prompt(seat), view.prompt.is_some(), "{at}: prompt");
            assert_eq!(game.notice(seat), view.notice, "{at}: notice");
        }
    }
    let lengths: Vec<usize> = VIEWERS.iter().map(|&v| game.record(v).len()).collect();
    assert!(
        lengths.iter().all(|&n| n == lengths[0]),
        "{id} step {step}: {lengths:?}"
    );
}

/// Every action some seat may take now: each seat to act's legal actions, and a list again from a
/// seat that may still change its own (the ready-made one).
fn candidates(game: &AnyGame) -> Vec<(Seat, Vec<Action>)> {
    let mut seats: Vec<(Seat, Vec<Action>)> = game
        .to_act()
        .into_iter()
        .map(|seat| (seat, game.legal_actions(seat)))
        .filter(|(_, actions)| !actions.is_empty())
        .collect();
    if let Some(kind) = game.list_kind() {
        for seat in Seat::BOTH.into_iter().filter(|&s| game.may_revise(s)) {
            seats.push((seat, vec![revised_list(kind)]));
        }
    }
    seats
}

/// A list a seat may send in place of its own: the ready-made one, last piece first.
fn revised_list(kind: ListKind) -> Action {
    let mut pieces = OwnPiecesGame::ready_made(kind);
    pieces.rotate_right(1);
    Action::SubmitList { pieces }
}

/// A random game of `id`: the actions played, each by its seat.
fn random_game(id: VariantId, seed: u64, steps: usize) -> Vec<(Seat, Action)> {
    let mut rng = Rng(seed ^ (id as u64) << 32);
    let mut game = AnyGame::new(id);
    let mut log = Vec::new();
    for _ in 0..steps {
        let seats = candidates(&game);
        if seats.is_empty() {
            break;
        }
        let (seat, actions) = &seats[rng.below(seats.len())];
        let action = actions[rng.below(actions.len())].clone();
        game.apply(*seat, &action).expect("a legal action applies");
        log.push((*seat, action));
    }
    log
}

#[test]
fn play_reports_what_diffing_views_finds_in_every_game() {
    for &id in VariantId::ALL {
        for seed in 0..GAMES {
            let mut game = AnyGame::new(id);
            let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ id as u64);
            for step in 0..MAX_STEPS {
                assert_parts_agree(id, step, &game);
                let seats = candidates(&game);
                if seats.is_empty() {
                    break;
                }
                let (seat, actions) = &seats[rng.below(seats.len())];
                let action = actions[rng.below(actions.len())].clone();
                // Now and then the same action by the other seat, which is refused alike.
                if rng.below(8) == 0 {
                    let (mut by_play, mut by_view) = (game.clone(), game.clone());
                    let refused = by_play.play(seat.other(), &action);
                    assert_eq!(
                        refused,
                        by_views(&mut by_view, seat.other(), &action),
                        "{id} step {step}"
                    );
                    assert_eq!(by_play, by_view, "{id} step {step}: a refusal changes nothing alike");
                }
                let mut reference = game.clone();
                let expected = by_views(&mut reference, *seat, &action);
                let applied = game.play(*seat, &action);
                assert_eq!(applied, expected, "{id} seed {seed} step {step}: {seat:?} {action:?}");
                assert!(applied.is_ok(), "{id} step {step}: a legal action applies");
                assert_eq!(game, reference, "{id} step {step}: play applies as apply does");
            }
        }
    }
}

/// The reports of some actions, known by heart: a sealed choice is read by nobody, a proposal by
/// the opponent, an accepted proposal tells its proposer, and revealed choices come back in full.
#[test]
fn play_reports_secrets_readers_prompts_and_notices() {
    let mut beirut = AnyGame::new(VariantId::Beirut);
    let bomb = beirut.parse_action(Seat::First, "bomb:d2").unwrap();
    let applied = beirut.play(Seat::First, &bomb).unwrap();
    assert_eq!(applied.hidden, Some(Readers::Nobody));
    assert_eq!(applied.public[0].text, "(chose a bomb carrier)");
    assert!(applied.prompted.is_empty(), "Black was prompted when the choice began");
    let bomb = beirut.parse_action(Seat::Second, "bomb:e7").unwrap();
    let applied = beirut.play(Seat::Second, &bomb).unwrap();
    assert_eq!(applied.hidden, Some(Readers::Nobody));
    assert!(applied.revealed.is_empty(), "Beirut's carriers stay secret in play");

    let mut ctf = AnyGame::new(VariantId::Ctf);
    let base = ctf.parse_action(Seat::First, "base:e1").unwrap();
    ctf.play(Seat::First, &base).unwrap();
    let base = ctf.parse_action(Seat::Second, "base:e8").unwrap();
    let applied = ctf.play(Seat::Second, &base).unwrap();
    assert_eq!(applied.hidden, None, "both bases are revealed at once");
    assert_eq!(applied.public[0].text, "base:e8");
    assert_eq!(applied.revealed[0].text, "base:e1");

    let mut rejection = AnyGame::new(VariantId::Rejection);
    let e4 = rejection.parse_action(Seat::First, "e4").unwrap();
    let applied = rejection.play(Seat::First, &e4).unwrap();
    assert_eq!(applied.hidden, Some(Readers::Opponent));
    assert_eq!(applied.prompted, [Seat::Second]);
    let applied = rejection.play(Seat::Second, &Action::Accept).unwrap();
    assert_eq!(applied.revealed[0].text, "e4", "the proposal becomes the move played");
    assert_eq!(
        applied.notices,
        [(Seat::First, "Black accepted your proposal: e4 is played.".into())]
    );

    let mut assault = AnyGame::new(VariantId::Assault);
    let e4 = assault.parse_action(Seat::First, "e4").unwrap();
    let applied = assault.play(Seat::First, &e4).unwrap();
    assert_eq!(applied.hidden, Some(Readers::Nobody));
    assert!(
        applied
            .own_notes
            .iter()
            .any(|note| note.starts_with("Your move on board 1 (e4) is in"))
    );
}

/// Times `apply` alone, `play`, and the view-diffing it replaces over the same random games of
/// every hosted game, and prints microseconds per action. Run in release:
/// `cargo test -p arbiter-engine --release --test applied -- --ignored --nocapture`.
#[test]
#[ignore]
fn what_play_costs_against_diffing_views() {
    const GAMES: u64 = 10;
    const STEPS: usize = 200;
    println!(
        "{:<16} {:>8} {:>12} {:>12} {:>12} {:>8}",
        "game", "actions", "apply µs", "play µs", "views µs", "views/play"
    );
    let (mut all_play, mut all_views, mut all_actions) = (Duration::ZERO, Duration::ZERO, 0);
    for &id in VariantId::ALL {
        let logs: Vec<Vec<(Seat, Action)>> = (0..GAMES).map(|seed| random_game(id, seed, STEPS)).collect();
        let actions: usize = logs.iter().map(Vec::len).sum();
        let time = |step: &dyn Fn(&mut AnyGame, Seat, &Action)| {
            let started = Instant::now();
            for log in &logs {
                let mut game = AnyGame::new(id);
                for (seat, action) in log {
                    step(&mut game, *seat, action);
                }
            }
            started.elapsed()
        };
        let apply = time(&|game, seat, action| game.apply(seat, action).unwrap());
        let play = time(&|game, seat, action| {
            std::hint::black_box(game.play(seat, action).unwrap());
        });
        let views = time(&|game, seat, action| {
            std::hint::black_box(by_views(game, seat, action).unwrap());
        });
        let per = |d: Duration| d.as_secs_f64() * 1e6 / actions.max(1) as f64;
        println!(
            "{:<16} {:>8} {:>12.1} {:>12.1} {:>12.1} {:>8.1}",
            id.as_str(),
            actions,
            per(apply),
            per(play),
            per(views),
            views.as_secs_f64() / play.as_secs_f64()
        );
        all_play += play;
        all_views += views;
        all_actions += actions;
    }
    println!(
        "all: {all_actions} actions, play {:.1} µs, views {:.1} µs per action",
        all_play.as_secs_f64() * 1e6 / all_actions as f64,
        all_views.as_secs_f64() * 1e6 / all_actions as f64
    );
}
