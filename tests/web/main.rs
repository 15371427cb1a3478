//! The live pages and stream overlays, served by the real binary (`arbiter local --web`), read
//! by a real browser and by plain HTTP: they follow the game (how fast is `arbiter bench web`'s
//! to measure), count clocks down, never hold a secret before the game reveals it, and come back
//! after a drop.

#[path = "../support/mod.rs"]
mod support;

mod accessible;
mod browser;
mod clicking;
mod events;
mod first_frame;
mod flood;
mod pages;
mod playing;
mod screenshots;
mod terminal;

/// A page's text, fetched by plain HTTP.
async fn text_of(url: String) -> String {
    reqwest::get(url).await.unwrap().text().await.unwrap()
}
