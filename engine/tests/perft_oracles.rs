//! Perft against the reference data in tests/oracles/ (see its README for where the numbers come
//! from). The default run checks every case up to a node budget that keeps the suite quick; the
//! ignored test runs every depth the data gives (`cargo test --release -- --ignored`).

use arbiter_engine::fairy_ini;
use arbiter_engine::movegen::perft;
use arbiter_engine::rules::Standard;
use arbiter_engine::variant::Variant;
use arbiter_engine::variants::blockade::BlockadeGame;
use serde_json::Value;

/// Leaf nodes a case may cost in the default run.
const NODE_BUDGET: u64 = 3_000_000;

struct Case {
    suite: &'static str,
    id: String,
    ini: Option<String>,
    fen: String,
    perft: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let files: [(&str, &str); 4] = [
        ("fide", include_str!("oracles/fide_standard.json")),
        ("ubc", include_str!("oracles/ubc.json")),
        ("ptt", include_str!("oracles/ptt.json")),
        ("blockade", include_str!("oracles/blockade.json")),
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
                fen: case["fen"].as_str().unwrap().to_string(),
                perft,
            });
        }
    }
    out
}

fn run(case: &Case, depth: u32) -> u64 {
    if case.suite == "blockade" {
        let game = BlockadeGame::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        return game.perft(depth);
    }
    let variant = match &case.ini {
        Some(ini) => fairy_ini::parse(ini).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
        None => (*Variant::fide()).clone(),
    };
    let position = variant
        .position_from_fen(&case.fen)
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    perft(&Standard, &variant, &position, depth)
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
