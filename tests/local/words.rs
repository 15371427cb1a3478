//! The board in words in the terminal (`show words`, `show #id words`): the same description a
//! board image carries as its alt text, from the asker's own view, with the moves in words.

use crate::support::run_script;

fn assert_no_errors(output: &str) {
    assert!(
        !output.lines().any(|l| l.contains("error:")),
        "the script hit an error:\n{output}"
    );
}

/// The last answer to `user` alone: from its "(to user)" line to the next answer or the end.
fn last_answer_to<'a>(output: &'a str, user: &str) -> &'a str {
    let marker = format!("({user}) ");
    let marker = format!("(to {}", &marker[1..]);
    let at = output
        .rfind(&marker)
        .unwrap_or_else(|| panic!("no answer to {user} in:\n{output}"));
    let answer = &output[at..];
    let end = answer[1..].find("\n(to ").map_or(answer.len(), |end| end + 1);
    &answer[..end]
}

#[tokio::test]
async fn show_words_names_the_last_move_the_pieces_and_the_moves_in_words() {
    let output = run_script(
        "alice: challenge bob chess white\n\
         bob: accept\n\
         alice: move e4\n\
         bob: move e5\n\
         alice: move Nf3\n\
         bob: move Nc6\n\
         alice: move Bb5\n\
         bob: show words\n",
    )
    .await;
    assert_no_errors(&output);
    let answer = last_answer_to(&output, "bob");
    for part in [
        "Chess, as Black sees it.",
        "Black (you) to move.",
        "Last: White played bishop to b5.",
        "White: king e1, queen d1, rooks a1 h1, bishops c1 b5, knights b1 f3,",
        "Black: king e8, queen d8, rooks a8 h8, bishops c8 f8, knights c6 g8,",
        "Moves: 1. White played pawn to e4. Black played pawn to e5. 2. White played knight to f3.",
    ] {
        assert!(answer.contains(part), "`{part}` missing from:\n{answer}");
    }
    // In words instead of the text board.
    assert!(!answer.contains("  8 r . b q k b n r"), "{answer}");
}

#[tokio::test]
async fn show_words_of_a_beirut_game_names_the_players_own_carrier_to_them_alone() {
    let output = run_script(
        "alice: challenge bob beirut white\n\
         bob: accept\n\
         alice: move bomb:g1\n\
         bob: move bomb:a7\n\
         alice: move e4\n\
         alice: show #1 words\n\
         bob: show #1 words\n",
    )
    .await;
    assert_no_errors(&output);
    let alices = last_answer_to(&output, "alice");
    let bobs = last_answer_to(&output, "bob");
    assert!(
        alices.contains("your secret bomb carrier (only you see this mark): g1")
            && alices.contains("1. White chose the bomb carrier on g1. Black chose a bomb carrier."),
        "{alices}"
    );
    assert!(
        bobs.contains("your secret bomb carrier (only you see this mark): a7")
            && bobs.contains("1. White chose a bomb carrier. Black chose the bomb carrier on a7."),
        "{bobs}"
    );
    assert!(!bobs.contains("g1.") && !bobs.contains("on g1"), "{bobs}");
}
