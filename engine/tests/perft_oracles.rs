//! Perft against the reference data in tests/oracles/ (see its README for where the numbers come
//! from). The default run checks every case up to a node budget that keeps the suite quick; the
//! ignored test runs every depth the data gives (`cargo test --release -- --ignored`).

use arbiter_engine::fairy_ini;
use arbiter_engine::movegen::perft;
use arbiter_engine::piece::Promotion;
use arbiter_engine::rules::Standard;
use arbiter_engine::variant_file::Variant;
use arbiter_engine::{AnyGame, VariantId};
use serde_json::Value;

/// Leaf nodes a case may cost in the default run.
const NODE_BUDGET: u64 = 3_000_000;

struct Case {
    suite: &'static str,
    id: String,
    ini: Option<String>,
    /// The letters of a case that names its pieces itself (pick-the-team-pieces.json).
    pieces: Option<Value>,
    fen: String,
    perft: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let files: [(&str, &str); 5] = [
        ("fide", include_str!("oracles/fide_standard.json")),
        ("ubc", include_str!("oracles/ubc.json")),
        ("ptt", include_str!("oracles/ptt.json")),
        ("blockade", include_str!("oracles/blockade.json")),
        ("ptt-pieces", include_str!("oracles/pick-the-team-pieces.json")),
    ];
    let mut out = Vec::new();
    for (suite, text) in files {
        let data: Value = serde_json::from_str(text).unwrap();
        for case in data["cases"].as_array().unwrap() {
            let mut perft: Vec<(u32, u64)> = case["perft"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                .collect();
            perft.sort();
            out.push(Case {
                suite,
                id: case["id"].as_str().unwrap().to_string(),
                ini: case.get("variant_ini").and_then(|v| v.as_str()).map(str::to_string),
                pieces: case.get("pieces").cloned(),
                fen: case["fen"].as_str().unwrap().to_string(),
                perft,
            });
        }
    }
    out
}

fn run(case: &Case, depth: u32) -> u64 {
    if case.suite == "blockade" {
        let game = AnyGame::from_fen(VariantId::Blockade, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        return game.perft(depth);
    }
    let variant = match (&case.ini, &case.pieces) {
        (_, Some(pieces)) => ptt_case_variant(&case.id, pieces),
        (Some(ini), None) => fairy_ini::parse(ini).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
        (None, None) => (*arbiter_engine::variants::fide()).clone(),
    };
    let position = variant
        .position_from_fen(&case.fen)
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    perft(&Standard, &variant, &position, depth)
}

/// The variant of a pick-the-team-pieces case: each letter the catalogue piece of its number on
/// docs/rules/pick-the-team.md (the order of Pick-the-team's variant file), the promotion choices the case restricts
/// itself to. The case's promotion rows and multi-steps must be the catalogue's own.
fn ptt_case_variant(id: &str, pieces: &Value) -> Variant {
    let game = arbiter_engine::variants::built_in_file("pick-the-team").unwrap();
    let mut specs = Vec::new();
    let mut choices = Vec::new();
    for (letter, piece) in pieces.as_object().unwrap() {
        let number = piece["ptt_number"].as_u64().unwrap() as usize;
        let (_, ours) = game.table.iter().nth(number - 1).unwrap();
        assert_eq!(
            ours.def.name.to_lowercase(),
            piece["name"].as_str().unwrap().to_lowercase(),
            "{id}"
        );
        assert_eq!(ours.def.betza, piece["betza"].as_str().unwrap(), "{id} {letter}");
        assert_eq!(
            ours.def.is_uncapturable,
            piece["uncapturable"].as_bool().unwrap(),
            "{id} {letter}"
        );
        let rows: Vec<u8> = piece["promotion"]["relative_rows"]
            .as_array()
            .map(|rows| rows.iter().map(|r| r.as_u64().unwrap() as u8).collect())
            .unwrap_or_default();
        let our_rows = match ours.def.promotion {
            Promotion::Never => vec![],
            Promotion::LastRank => vec![10],
            Promotion::RelativeRank(row) => vec![row],
        };
        assert_eq!(our_rows, rows, "{id} {letter} promotion rows");
        let steps = ours.def.multi_step.as_ref().map(|steps| {
            // As the stored format writes it: "straight", "diagonal".
            let direction = serde_json::to_value(steps.direction).unwrap();
            let rows: serde_json::Map<String, Value> = steps
                .rows
                .iter()
                .map(|(row, counts)| (row.to_string(), serde_json::json!(counts)))
                .collect();
            serde_json::json!({ "direction": direction, "rows": rows })
        });
        assert_eq!(
            steps.unwrap_or(Value::Null),
            piece["multi_step"],
            "{id} {letter} multi-steps"
        );
        if let Some(letters) = piece["promotion"]["choices"].as_array() {
            choices = letters.iter().map(|l| format!("\"{}\"", l.as_str().unwrap())).collect();
        }
        specs.push(format!("{{ catalogue = \"{}\", symbol = \"{letter}\" }}", ours.def.id));
    }
    let file = format!(
        "id = \"ptt-case\"\nname = \"{id}\"\nfiles = 10\nranks = 10\nstart = \"10/10/10/10/10/10/10/10/10/10 w - - 0 1\"\n\
         pieces = [{}]\ninitial_move_ranks = []\npromotion_choices = [{}]\n",
        specs.join(", "),
        choices.join(", ")
    );
    Variant::from_toml(&file).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn check_all(budget: Option<u64>) {
    let mut checked = 0;
    for case in cases() {
        for &(depth, nodes) in &case.perft {
            if budget.is_some_and(|b| nodes > b) {
                continue;
            }
            assert_eq!(run(&case, depth), nodes, "{} {} depth {depth}", case.suite, case.id);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn perft_matches_every_oracle_case_within_the_node_budget() {
    check_all(Some(NODE_BUDGET));
}

#[test]
fn every_oracle_case_is_checked_at_some_depth() {
    for case in cases() {
        let shallowest = case.perft.first().unwrap();
        assert!(shallowest.1 <= NODE_BUDGET, "{} is never checked", case.id);
    }
}

#[test]
#[ignore = "deep perft: minutes even in release; run with --release -- --ignored"]
fn perft_matches_every_oracle_case_at_full_depth() {
    check_all(None);
}
