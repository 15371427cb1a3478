//! The board in words on request: `/board words:true` answers privately with the asker's own
//! board described in words (their secrets included) and the moves in words, instead of the image.

use crate::bot::*;
use arbiter_engine::VariantId;
use serde_json::json;

/// The answer's words as Discord shows them: its escapes of markdown taken out.
fn shown(content: &str) -> String {
    content.replace('\\', "")
}

#[tokio::test]
async fn board_in_words_answers_privately_with_the_askers_own_description_and_moves() {
    let bot = Bot::start().await;
    let (_, thread) = bot.started(variant_index(VariantId::Beirut)).await;
    bot.play(&alice(), thread, "bomb:d2").await;
    bot.play(&bob(), thread, "bomb:e7").await;
    bot.play(&alice(), thread, "e4").await;

    let words = json!([{ "name": "words", "type": 5, "value": true }]);
    let answer = bot.command(&alice(), thread, "board", words.clone()).await;
    assert!(is_ephemeral(&answer), "answered privately: {}", answer.json);
    assert!(answer.files.is_empty(), "words instead of the image: {}", answer.json);
    let text = shown(&content(&answer));
    for part in [
        "as White sees it.",
        "Black to move.",
        "Last: White played pawn to e4.",
        "White: king e1, queen d1, rooks a1 h1, bishops c1 f1, knights b1 g1, pawns a2 b2 c2 d2 f2 g2 h2 e4.",
        "Marks: your secret bomb carrier (only you see this mark): d2.",
        "Moves: 1. White chose the bomb carrier on d2. Black chose a bomb carrier. 2. White played pawn to e4.",
    ] {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }

    let bobs = shown(&content(&bot.command(&bob(), thread, "board", words).await));
    assert!(bobs.contains("(only you see this mark): e7."), "{bobs}");
    assert!(
        !bobs.contains(": d2") && !bobs.contains("on d2"),
        "alice's carrier is hers: {bobs}"
    );

    let drawn = bot.command(&alice(), thread, "board", json!([])).await;
    assert!(
        !drawn.files.is_empty(),
        "without words, /board answers with the image: {}",
        drawn.json
    );
    bot.stop().await;
}
