//! The words of each game's images, their limits, and their secrets.

use super::*;
use arbiter_engine::{AnyGame, Game};

fn played(id: VariantId, texts: &str) -> AnyGame {
    let mut game = AnyGame::new(id);
    for text in texts.split_whitespace() {
        let seat = game.to_act()[0];
        let action = game.parse_action(seat, text).unwrap();
        game.apply(seat, &action).unwrap();
    }
    game
}

fn image(game: &AnyGame, viewer: Viewer) -> BoardImage {
    BoardImage {
        view: game.view(viewer),
        decor: Decor::default(),
    }
}

fn words_of(game: &AnyGame, viewer: Viewer) -> String {
    describe(&image(game, viewer))
}

fn assert_holds(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }
}

#[test]
fn chess_reads_the_game_whose_turn_the_last_move_check_every_piece_names_and_clocks() {
    let game = played(VariantId::Chess, "e4 f5 Qh5+");
    let mut shown = image(&game, Viewer::Spectator);
    shown.decor.player_names = [Some("alice".into()), Some("bob".into())];
    shown.decor.clocks = [Some("4:12".into()), Some("3:59".into())];
    let text = describe(&shown);
    assert_holds(
        &text,
        &[
            "Chess. Players: alice as White, bob as Black. Black to move.",
            "Last: White played queen to h5, check.",
            "Check: Black's king on e8.",
            "White: king e1, queen h5, rooks a1 h1, bishops c1 f1, knights b1 g1, pawns a2 b2 c2 d2 f2 g2 h2 e4.",
            "Black: king e8, queen d8, rooks a8 h8, bishops c8 f8, knights b8 g8, pawns f5 a7 b7 c7 d7 e7 g7 h7.",
            "Clocks: White 4:12, Black 3:59.",
        ],
    );
}

#[test]
fn a_result_replaces_whose_turn_and_a_player_reads_their_own_turn() {
    let mated = played(VariantId::Chess, "f3 e5 g4 Qh4#");
    assert_holds(
        &words_of(&mated, Viewer::Spectator),
        &[
            "0-1: Black wins by checkmate.",
            "Last: Black played queen to h4, checkmate.",
        ],
    );
    let fresh = AnyGame::new(VariantId::Chess);
    let text = words_of(&fresh, Viewer::Seat(Seat::First));
    assert_holds(
        &text,
        &["Chess, as White sees it.", "White (you) to move.", "No moves yet."],
    );
}

#[test]
fn a_description_too_long_counts_the_largest_kinds_first_then_every_kind() {
    let shown = image(&AnyGame::new(VariantId::Chess), Viewer::Spectator);
    let full = describe(&shown);
    let counted = describe_within(&shown, full.chars().count() - 1);
    assert_holds(&counted, &["8 pawns", "king e1", "rooks a1 h1"]);
    assert!(!counted.contains("pawns a2"), "{counted}");
    let briefest = describe_within(&shown, 150);
    assert!(briefest.chars().count() <= 150, "{briefest}");
    assert_holds(&briefest, &["White: king, queen, 2 rooks"]);
}

/// A 10x10 board full of pieces of many kinds: every level of shortening is needed, and the
/// words never exceed the limit nor end in the middle of a word.
#[test]
fn a_crowded_ten_by_ten_position_stays_within_the_limit_and_ends_on_a_whole_word() {
    let fen = "k(cn)(pa)(ca)(nc)(cd)(ch)qrb/nbrqfw(ml)(al)(na)(da)/pppppppppp/pppppppppp/pppppppppp/\
               PPPPPPPPPP/PPPPPPPPPP/PPPPPPPPPP/NBRQFW(ML)(AL)(NA)(DA)/K(CN)(PA)(CA)(NC)(CD)(CH)QRB w - - 0 1";
    let game = AnyGame::from_fen(VariantId::PickTheTeam, fen).unwrap();
    let shown = image(&game, Viewer::Spectator);
    let text = describe(&shown);
    assert!(
        text.chars().count() <= MOST_DESCRIPTION_CHARS,
        "{} chars: {text}",
        text.chars().count()
    );
    let briefest = compose(&shown, *Detail::fullest_first(&shown.view).last().unwrap());
    assert_holds(
        &text,
        &[
            "Pick-the-team Chess.",
            "White: king a1, queens h1 d2",
            "Black: king a10",
        ],
    );
    assert_holds(&describe_within(&shown, 700), &["White: ", "30 pawns", "Black: "]);
    for most in [0, 1, 40, 150, 333, 700] {
        let short = describe_within(&shown, most);
        assert!(short.chars().count() <= most, "{most}: {short}");
        let ends_whole = short.is_empty() || short.ends_with('.') || short.ends_with('…');
        assert!(ends_whole, "{most}: {short}");
        if let Some(cut) = short.strip_suffix('…').filter(|cut| !cut.is_empty()) {
            let after = briefest
                .strip_prefix(cut)
                .expect("a cut keeps the briefest words' start");
            assert!(
                after.starts_with([' ', ',', ';', ':', '.']),
                "cut mid-word at {most}: {short}"
            );
        }
    }
}

#[test]
fn blockade_and_garden_read_their_seats_statues_placements_and_hands() {
    let start = AnyGame::new(VariantId::Garden);
    let text = words_of(&start, Viewer::Spectator);
    assert_holds(&text, &["Garden of Statues.", "Red to place.", "No moves yet."]);
    let game = played(
        VariantId::Garden,
        "Q@a1 Q@a2 R@a3 R@a4 R@a5 R@a6 B@a7 B@a8 B@b1 B@d2 Qa1-e5@e2",
    );
    let text = words_of(&game, Viewer::Spectator);
    assert_holds(
        &text,
        &[
            "Blue to move.",
            "Last: Red moved queen (never captures) a1 to e5, statue on e2.",
            "Red: queen (never captures) e5, rooks (never captures) a4 a5, bishops (never captures) b1 a8.",
            "Blue: queen (never captures) a2,",
            "Statues: e2.",
        ],
    );
}

#[test]
fn beirut_reads_a_carrier_to_its_owner_alone() {
    let game = played(VariantId::Beirut, "bomb:d2 bomb:e7 e4");
    let spectator = words_of(&game, Viewer::Spectator);
    let white = words_of(&game, Viewer::Seat(Seat::First));
    let black = words_of(&game, Viewer::Seat(Seat::Second));
    assert!(
        !spectator.contains("carrier:") && !spectator.contains("Marks"),
        "{spectator}"
    );
    assert_holds(
        &white,
        &["Marks: your secret bomb carrier (only you see this mark): d2."],
    );
    assert_holds(
        &black,
        &["Marks: your secret bomb carrier (only you see this mark): e7."],
    );
    assert!(!white.contains("e7.") && !black.contains(": d2"), "{white}\n{black}");
    let moves = moves_in_words(&game.view(Viewer::Seat(Seat::First)), 500);
    assert_holds(
        &moves,
        &["1. White chose the bomb carrier on d2. Black chose a bomb carrier. 2. White played pawn to e4."],
    );
    assert!(!moves_in_words(&game.view(Viewer::Spectator), 500).contains("d2"));
}

#[test]
fn ctf_reads_a_base_to_its_owner_alone_until_both_are_chosen() {
    let game = played(VariantId::Ctf, "base:a1");
    let spectator = words_of(&game, Viewer::Spectator);
    let white = words_of(&game, Viewer::Seat(Seat::First));
    assert!(
        !spectator.contains("Marks") && !spectator.contains("base a1"),
        "{spectator}"
    );
    assert_holds(&spectator, &["Waiting for a secret choice from Black."]);
    assert_holds(&white, &["your base (only you see it until both bases are chosen): a1"]);
    let both = played(VariantId::Ctf, "base:a1 base:h8");
    assert_holds(
        &words_of(&both, Viewer::Spectator),
        &["White's base: a1; White's flag: a1; Black's base: h8; Black's flag: h8."],
    );
}

#[test]
fn rejection_reads_a_proposal_to_its_players_and_its_stand_in_to_others() {
    let game = played(VariantId::Rejection, "e4");
    assert_holds(&words_of(&game, Viewer::Spectator), &["Last: White proposed a move."]);
    assert_holds(
        &words_of(&game, Viewer::Seat(Seat::First)),
        &[
            "Last: White played pawn to e4.",
            "White's proposal: e4, on e2 e4",
            "Your proposal e4 is waiting",
        ],
    );
    let rejected = played(VariantId::Rejection, "e4 reject d4");
    assert_holds(
        &moves_in_words(&rejected.view(Viewer::Spectator), 500),
        &["1. White played d4 in place of the rejected proposal."],
    );
}

#[test]
fn marks_read_their_meaning_without_how_they_are_drawn_and_with_their_labels() {
    let portal = words_of(&AnyGame::new(VariantId::Portal), Viewer::Spectator);
    assert_holds(
        &portal,
        &["Marks: a portal; a move ending on one goes on to the other of its number"],
    );
    assert_holds(&portal, &["f3 (1) b5 (1) f6 (2) b4 (2)."]);
    let domination = played(VariantId::Domination, "c4 d5 cxd5");
    let text = words_of(&domination, Viewer::Spectator);
    assert_holds(
        &text,
        &[
            "a domination square and its owner: d5 (White)",
            "Score: White ",
            "Turn 1 of 30.",
        ],
    );
    assert!(!text.contains("Ringed") && !text.contains("Tinted"), "{text}");
}

#[test]
fn assault_labels_each_board_and_names_who_plays_which_side_there() {
    let game = played(VariantId::Assault, "e4 d4");
    let text = words_of(&game, Viewer::Spectator);
    assert_holds(
        &text,
        &[
            "Assault Chess.",
            "Board 1: A White, B Black. A: king e1,",
            "Board 2: B White, A Black. B: king e1,",
        ],
    );
}

#[test]
fn pick_the_team_reads_picks_as_placements_and_the_pool_by_kind() {
    let game = played(VariantId::PickTheTeam, "K@e1 RN@f10 CN@a10");
    let text = words_of(&game, Viewer::Spectator);
    assert_holds(
        &text,
        &[
            "Pick-the-team Chess.",
            "White to place.",
            "Last: Black placed chinese nightrider on a10.",
            "White: king e1.",
            "Black: royal knight f10, chinese nightrider a10.",
            "Pool to pick from: ",
        ],
    );
}

#[test]
fn notation_reads_as_words_in_every_form_the_games_write() {
    let view = AnyGame::new(VariantId::Chess).view(Viewer::Spectator);
    for (text, words) in [
        ("Nbxd2", "played knight from b takes d2"),
        ("exd8=Q#", "played pawn from e takes d8, promoting to queen, checkmate"),
        ("O-O-O+", "played castles queenside, check"),
        ("Nf3>b5", "played knight to f3, through the portal to b5"),
        ("Bxg4(a5)", "played bishop takes g4, the captured piece reborn on a5"),
        ("Q@d4", "placed queen on d4"),
        ("Qa1-e5@e2", "moved queen a1 to e5, statue on e2"),
        ("bomb:d2", "chose the bomb carrier on d2"),
        ("detonate", "detonated the bomb"),
        ("base:a1", "chose the base a1"),
        ("Zz9", "played Zz9"),
    ] {
        assert_eq!(action_words(&view, text), words, "{text}");
    }
}

#[test]
fn every_game_reads_whose_turn_and_the_last_action_within_the_limit() {
    for &id in VariantId::ALL {
        let mut game = AnyGame::new(id);
        for _ in 0..6 {
            let seat = game.to_act()[0];
            let (action, _) = game.noted_actions(seat).into_iter().next().unwrap();
            game.apply(seat, &action).unwrap();
        }
        for viewer in [Viewer::Spectator, Viewer::Seat(Seat::First), Viewer::Seat(Seat::Second)] {
            let text = words_of(&game, viewer);
            assert!(text.chars().count() <= MOST_DESCRIPTION_CHARS, "{id:?}: {text}");
            assert!(text.contains("Last: "), "{id:?}: {text}");
            let says_turn = ["to move.", "to place.", "Waiting for a secret choice"];
            assert!(says_turn.iter().any(|turn| text.contains(turn)), "{id:?}: {text}");
        }
    }
}

#[test]
fn a_long_game_keeps_its_latest_moves_and_says_how_many_it_leaves_out() {
    let game = played(VariantId::Chess, "Nf3 Nf6 Nc3 Nc6 d4 d5 Bf4 Bf5 e4 e5");
    let view = game.view(Viewer::Spectator);
    let all = moves_in_words(&view, 2000);
    assert!(all.starts_with("Moves: 1. White played knight to f3."), "{all}");
    let short = moves_in_words(&view, 120);
    assert!(short.chars().count() <= 120, "{short}");
    assert!(short.starts_with("Moves, the first "), "{short}");
    assert!(
        short.ends_with("5. White played pawn to e4. Black played pawn to e5."),
        "{short}"
    );
}

#[test]
fn a_table_reads_its_title_columns_and_rows_and_leaves_rows_out_by_saying_so() {
    let table = Table {
        title: "Spring open, round 3".into(),
        header: vec!["#".into(), "Player".into(), "Pts".into()],
        rows: (1..=80)
            .map(|n| vec![n.to_string(), format!("player{n}"), "2".into()])
            .collect(),
        name_column: Some(1),
        legend: "Pts: points".into(),
    };
    let text = describe_table(&table);
    assert!(text.chars().count() <= MOST_DESCRIPTION_CHARS, "{text}");
    assert_holds(
        &text,
        &["Spring open, round 3. Pts: points. Columns: #, Player, Pts. 1, player1, 2."],
    );
    assert!(text.ends_with("more rows."), "{text}");
    let few = Table {
        rows: table.rows[..2].to_vec(),
        ..table.clone()
    };
    assert_eq!(
        describe_table(&few),
        "Spring open, round 3. Pts: points. Columns: #, Player, Pts. 1, player1, 2. 2, player2, 2."
    );
}
